package installers

import (
	"os"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// fileBasicInfo is Windows' FILE_BASIC_INFO, times in 100 ns since 1601.
type fileBasicInfo struct {
	CreationTime, LastAccessTime, LastWriteTime, ChangeTime int64
	FileAttributes                                          uint32
	_                                                       uint32
}

// changed is when f last changed: the later of its modification time and
// its change time, which no program sets (PowerShell's LastWriteTime sets
// the first back, and moves the second to now).
func changed(f *os.File, fi os.FileInfo) time.Time {
	var info fileBasicInfo
	if windows.GetFileInformationByHandleEx(windows.Handle(f.Fd()), windows.FileBasicInfo, (*byte)(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))) != nil {
		return fi.ModTime()
	}
	ft := windows.Filetime{LowDateTime: uint32(info.ChangeTime), HighDateTime: uint32(info.ChangeTime >> 32)}
	if c := time.Unix(0, ft.Nanoseconds()); c.After(fi.ModTime()) {
		return c
	}
	return fi.ModTime()
}
