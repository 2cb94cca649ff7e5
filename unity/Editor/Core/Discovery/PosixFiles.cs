using System;
using System.ComponentModel;
using System.IO;
using System.Runtime.InteropServices;

namespace Tether.Core.Discovery
{
    /// <summary>
    /// The few POSIX file facts Tether needs to keep secrets private on macOS and Linux: set a
    /// mode (0600 files, 0700 directories), read a mode and an owner, tell a symbolic link.
    /// netstandard2.1 has no File.SetUnixFileMode, and Unity's Mono no Mono.Posix we can count on,
    /// so these call libc directly.
    ///
    /// Windows has no uids and no POSIX modes: there every method is a no-op or a neutral answer,
    /// and Tether relies on the ACLs of the user's profile directory, as the TypeScript side does.
    /// </summary>
    public static class PosixFiles
    {
        private const int FileTypeMask = 0xF000; // S_IFMT
        private const int SymlinkType = 0xA000;  // S_IFLNK
        private const int DirectoryType = 0x4000; // S_IFDIR
        private const int RegularType = 0x8000;  // S_IFREG

        /// <summary>True on macOS and Linux (and other Unixes): where modes and owners apply.</summary>
        public static bool IsPosix { get; } = !RuntimeInformation.IsOSPlatform(OSPlatform.Windows);

        /// <summary>Sets the permission bits of <paramref name="path"/> (e.g. 0x180 = 0600). A no-op on Windows.</summary>
        /// <exception cref="IOException">chmod failed (the path is missing, or not ours).</exception>
        public static void Chmod(string path, int mode)
        {
            if (!IsPosix) return;
            if (path == null) throw new ArgumentNullException(nameof(path));
            if (Native.chmod(path, (uint)mode) != 0)
            {
                var errno = Marshal.GetLastWin32Error();
                throw new IOException($"Could not set the mode of {path} to {Convert.ToString(mode, 8)}: {new Win32Exception(errno).Message} (errno {errno}).");
            }
        }

        /// <summary>
        /// The permission bits of <paramref name="path"/> itself (mode &amp; 07777, the sticky bit
        /// included; a symbolic link's own, not its target's). -1 on Windows, for a missing path,
        /// and where this build cannot read the stat layout (see PosixStat).
        /// </summary>
        public static int ModeOf(string path)
        {
            var stat = PosixStat.Lstat(path);
            return stat.HasValue ? stat.Value.Mode & 0xFFF : -1;
        }

        /// <summary>
        /// True when the current (effective) user owns <paramref name="path"/> itself (not a link's
        /// target). Always true on Windows and where the stat layout is unknown (nothing to check
        /// with); false for a missing path.
        /// </summary>
        public static bool IsOwnedByCurrentUser(string path)
        {
            if (!IsPosix || !PosixStat.IsSupported) return true;
            var stat = PosixStat.Lstat(path);
            return stat.HasValue && stat.Value.Uid == CurrentUserId;
        }

        /// <summary>True when <paramref name="path"/> is a symbolic link (dangling or not), or on Windows a reparse point (link, junction).</summary>
        public static bool IsSymlink(string path)
        {
            if (IsPosix && PosixStat.IsSupported)
            {
                var stat = PosixStat.Lstat(path);
                return stat.HasValue && (stat.Value.Mode & FileTypeMask) == SymlinkType;
            }
            try
            {
                var attributes = new FileInfo(path).Attributes;
                // A missing path reports -1 (every bit) on .NET, and throws on older runtimes.
                return (int)attributes != -1 && (attributes & FileAttributes.ReparsePoint) != 0;
            }
            catch (IOException)
            {
                return false;
            }
            catch (UnauthorizedAccessException)
            {
                return false;
            }
        }

        /// <summary>The effective uid of this process; -1 on Windows.</summary>
        public static long CurrentUserId => IsPosix ? Native.geteuid() : -1;

        /// <summary>The owner's uid of <paramref name="path"/> itself; -1 when unknown (Windows, missing, unknown layout).</summary>
        public static long OwnerOf(string path)
        {
            var stat = PosixStat.Lstat(path);
            return stat.HasValue ? stat.Value.Uid : -1;
        }

        /// <summary>True when <paramref name="path"/> itself is a directory (not a link to one). Unknown layout or Windows: Directory.Exists.</summary>
        internal static bool IsRealDirectory(string path)
        {
            if (IsPosix && PosixStat.IsSupported)
            {
                var stat = PosixStat.Lstat(path);
                return stat.HasValue && (stat.Value.Mode & FileTypeMask) == DirectoryType;
            }
            return Directory.Exists(path) && !IsSymlink(path);
        }

        /// <summary>True when <paramref name="path"/> itself is a regular file (not a link, FIFO, device…).</summary>
        internal static bool IsRegularFile(string path)
        {
            if (IsPosix && PosixStat.IsSupported)
            {
                var stat = PosixStat.Lstat(path);
                return stat.HasValue && (stat.Value.Mode & FileTypeMask) == RegularType;
            }
            return File.Exists(path) && !IsSymlink(path);
        }

        internal static class Native
        {
            // "libc" resolves to libc.so.6 on Linux (Mono's dllmap; .NET probes it) and to
            // libSystem on macOS. mode_t is 32 bits on Linux and 16 on macOS: passed in a
            // register either way, so a uint serves both.
            [DllImport("libc", SetLastError = true)]
            internal static extern int chmod([MarshalAs(UnmanagedType.LPUTF8Str)] string path, uint mode);

            [DllImport("libc")]
            internal static extern uint geteuid();
        }
    }
}
