package proctree

import (
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// read finds pid in a snapshot of the system's processes: its parent and
// its executable's name. Windows lets no user read another process's
// environment without opening its memory: Env stays nil.
func read(pid int) (Proc, bool) {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return Proc{}, false
	}
	defer windows.CloseHandle(snap)
	var e windows.ProcessEntry32
	e.Size = uint32(unsafe.Sizeof(e))
	for err = windows.Process32First(snap, &e); err == nil; err = windows.Process32Next(snap, &e) {
		if int(e.ProcessID) == pid {
			return Proc{PID: pid, PPID: int(e.ParentProcessID), Name: windows.UTF16ToString(e.ExeFile[:])}, true
		}
	}
	return Proc{}, false
}

// brief reads pid's parent and name from a snapshot, and its start from
// GetProcessTimes.
func brief(pid int) (p Proc, start time.Time, ok bool) {
	if p, ok = read(pid); !ok {
		return p, start, false
	}
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return p, start, false
	}
	defer windows.CloseHandle(h)
	var created, exited, kernel, user windows.Filetime
	if windows.GetProcessTimes(h, &created, &exited, &kernel, &user) != nil {
		return p, start, false
	}
	return p, time.Unix(0, created.Nanoseconds()), true
}
