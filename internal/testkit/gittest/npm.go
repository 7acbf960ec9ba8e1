package gittest

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha1"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// NpmMain is the name of lucid's npm package, the one a person installs.
const NpmMain = "@lucid-dev/lucid"

// ModuleTop is the folder of lucid's module, where its scripts are.
func ModuleTop() (string, error) {
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil || len(strings.TrimSpace(string(gomod))) == 0 || strings.TrimSpace(string(gomod)) == os.DevNull {
		return "", fmt.Errorf("finding lucid's module from %s: %v", mustGetwd(), err)
	}
	return filepath.Dir(strings.TrimSpace(string(gomod))), nil
}

func mustGetwd() string {
	wd, _ := os.Getwd()
	return wd
}

// NpmPack runs scripts/npm-pack for this machine's platform with version,
// the tarballs into out, and returns their paths.
func NpmPack(out, version string) ([]string, error) {
	top, err := ModuleTop()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(filepath.Join(top, "scripts", "npm-pack"), "--platforms", "host", "--version", version, "--out", out)
	cmd.Dir = top
	var stderr strings.Builder
	cmd.Stderr = &stderr
	got, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("scripts/npm-pack: %v\n%s", err, stderr.String())
	}
	return strings.Fields(string(got)), nil
}

// NpmRegistry is an npm registry on loopback serving only the packages of
// some tarballs, as the public one serves them: a person's `npm i -g
// @lucid-dev/lucid` is tried as it is, npm choosing the platform's package
// among the optional dependencies by itself, and without the network (npm
// asks nothing of any other host).
type NpmRegistry struct {
	URL  string
	srv  *httptest.Server
	mu   sync.Mutex
	asks []string
}

type npmVersion struct {
	manifest map[string]any
	file     string
}

// ServeNpm serves the tarballs' packages, each at the version its
// package.json says; Close stops it.
func ServeNpm(tarballs []string) (*NpmRegistry, error) {
	pkgs := map[string]npmVersion{}
	for _, t := range tarballs {
		data, err := os.ReadFile(t)
		if err != nil {
			return nil, err
		}
		m, err := tarManifest(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", t, err)
		}
		sum512 := sha512.Sum512(data)
		sum1 := sha1.Sum(data)
		m["dist"] = map[string]any{
			"integrity": "sha512-" + base64.StdEncoding.EncodeToString(sum512[:]),
			"shasum":    hex.EncodeToString(sum1[:]),
		}
		name, _ := m["name"].(string)
		pkgs[name] = npmVersion{manifest: m, file: t}
	}
	// The platforms' packages not built here are served as their manifests
	// alone (os and cpu told by the name), as the public registry would
	// serve them: npm passes them over by their os and cpu, and fetching
	// one's tarball would fail.
	for _, p := range pkgs {
		deps, _ := p.manifest["optionalDependencies"].(map[string]any)
		for name, v := range deps {
			parts := strings.Split(name, "-")
			if _, ok := pkgs[name]; ok || len(parts) < 3 {
				continue
			}
			pkgs[name] = npmVersion{manifest: map[string]any{
				"name": name, "version": v,
				"os": []string{parts[len(parts)-2]}, "cpu": []string{parts[len(parts)-1]},
				"dist": map[string]any{},
			}, file: name + ".missing.tgz"}
		}
	}
	r := &NpmRegistry{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.asks = append(r.asks, req.Method+" "+req.URL.Path)
		r.mu.Unlock()
		path, err := url.PathUnescape(req.URL.EscapedPath())
		if err != nil {
			http.NotFound(w, req)
			return
		}
		if tgz, ok := strings.CutPrefix(path, "/-/tarballs/"); ok {
			for _, p := range pkgs {
				if filepath.Base(p.file) == tgz && !strings.HasSuffix(tgz, ".missing.tgz") {
					http.ServeFile(w, req, p.file)
					return
				}
			}
			http.NotFound(w, req)
			return
		}
		p, ok := pkgs[strings.TrimPrefix(path, "/")]
		if !ok {
			http.Error(w, `{"error":"Not found"}`, http.StatusNotFound)
			return
		}
		m := map[string]any{}
		for k, v := range p.manifest {
			m[k] = v
		}
		// The registry's own address, from the request: r.URL is set only
		// once the server has started.
		dist := map[string]any{"tarball": "http://" + req.Host + "/-/tarballs/" + filepath.Base(p.file)}
		for k, v := range p.manifest["dist"].(map[string]any) {
			dist[k] = v
		}
		m["dist"] = dist
		v := m["version"].(string)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"name": m["name"], "dist-tags": map[string]string{"latest": v},
			"versions": map[string]any{v: m},
		})
	}))
	r.URL = r.srv.URL
	return r, nil
}

// Asked is what npm asked of the registry, each as "GET /path".
func (r *NpmRegistry) Asked() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.asks...)
}

// Close stops the registry.
func (r *NpmRegistry) Close() { r.srv.Close() }

// tarManifest is the package.json of an npm tarball.
func tarManifest(data []byte) (map[string]any, error) {
	zr, err := gzip.NewReader(strings.NewReader(string(data)))
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil, errors.New("no package/package.json")
			}
			return nil, err
		}
		if h.Name == "package/package.json" {
			var m map[string]any
			if err := json.NewDecoder(tr).Decode(&m); err != nil {
				return nil, err
			}
			return m, nil
		}
	}
}

// NpmInstall runs `npm install -g NpmMain` (with npm's extra args) into
// prefix from registry, with a cache of its own (under prefix) and nothing
// asked of any other host; it returns npm's output. The installed lucid is
// prefix/bin/lucid.
func NpmInstall(npm, prefix, registry string, args ...string) (string, error) {
	argv := []string{"install", "-g", "--prefix", prefix, "--registry", registry,
		"--cache", filepath.Join(prefix, ".npm-cache"), "--no-audit", "--no-fund", "--no-update-notifier",
		"--foreground-scripts"}
	cmd := exec.Command(npm, append(append(argv, args...), NpmMain)...)
	cmd.Env = npmEnv(prefix)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("npm install -g %s: %v\n%s", NpmMain, err, out)
	}
	return string(out), nil
}

// NpmUninstall runs `npm rm -g NpmMain` in prefix, as NpmInstall installed it.
func NpmUninstall(npm, prefix string) (string, error) {
	cmd := exec.Command(npm, "rm", "-g", "--prefix", prefix, "--cache", filepath.Join(prefix, ".npm-cache"),
		"--no-audit", "--no-fund", "--no-update-notifier", NpmMain)
	cmd.Env = npmEnv(prefix)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("npm rm -g %s: %v\n%s", NpmMain, err, out)
	}
	return string(out), nil
}

// npmEnv is the environment of an npm run into prefix: this one without
// the user's npm configuration, nor a proxy that would reach out.
func npmEnv(prefix string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(strings.ToLower(k), "npm_config_") || strings.Contains(strings.ToLower(k), "proxy") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "NPM_CONFIG_USERCONFIG="+filepath.Join(prefix, ".npmrc"), "NPM_CONFIG_GLOBALCONFIG="+filepath.Join(prefix, "npmrc"))
}
