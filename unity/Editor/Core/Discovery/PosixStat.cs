using System;
using System.Runtime.InteropServices;

namespace Tether.Core.Discovery
{
    /// <summary>
    /// lstat(2) without Mono.Posix: the two fields Tether reads (st_mode, st_uid) picked out of
    /// the raw struct at the offsets each platform's ABI puts them. struct stat differs between
    /// platforms, so only the layouts known here are read:
    ///
    ///   Linux x86-64 (glibc, musl): st_dev 8, st_ino 8, st_nlink 8, st_mode u32 @24, st_uid u32 @28; 144 bytes.
    ///   Linux arm64 (asm-generic):  st_dev 8, st_ino 8, st_mode u32 @16, st_nlink u32, st_uid u32 @24; 128 bytes.
    ///   macOS x86-64 and arm64 (64-bit inodes): st_dev i32, st_mode u16 @4, st_nlink u16, st_ino u64,
    ///                                           st_uid u32 @16; 144 bytes.
    ///
    /// On any other platform IsSupported is false and callers skip the checks (as on Windows).
    /// glibc before 2.33 (Ubuntu 20.04, which Unity supports) exports no "lstat" symbol, only
    /// __lxstat(version, …), so that is tried when lstat is not found. On macOS x86-64 the plain
    /// "lstat" symbol is the old 32-bit-inode struct; "lstat$INODE64" is the layout above (on
    /// arm64 there is only the 64-bit one, named "lstat").
    /// </summary>
    internal static class PosixStat
    {
        internal struct Info
        {
            public int Mode;
            public long Uid;
        }

        private enum Layout { None, LinuxX64, LinuxArm64, MacOs }

        private static readonly Layout Current = Detect();
        private const int BufferBytes = 512; // larger than any layout above, in case of padding we do not know

        /// <summary>True where the struct layout is known (Linux x64/arm64, macOS x64/arm64).</summary>
        internal static bool IsSupported => Current != Layout.None;

        // 0: try lstat; 1: use __lxstat (older glibc). Set once the first call finds out.
        private static volatile int _linuxEntry;

        /// <summary>The path's own mode and owner (not following a final symbolic link); null when missing or unknown.</summary>
        internal static Info? Lstat(string path)
        {
            if (Current == Layout.None || path == null) return null;
            var buffer = Marshal.AllocHGlobal(BufferBytes);
            try
            {
                for (var i = 0; i < BufferBytes; i += 8) Marshal.WriteInt64(buffer, i, 0);
                if (Call(path, buffer) != 0) return null;
                switch (Current)
                {
                    case Layout.LinuxX64:
                        return new Info { Mode = Marshal.ReadInt32(buffer, 24), Uid = (uint)Marshal.ReadInt32(buffer, 28) };
                    case Layout.LinuxArm64:
                        return new Info { Mode = Marshal.ReadInt32(buffer, 16), Uid = (uint)Marshal.ReadInt32(buffer, 24) };
                    default:
                        return new Info { Mode = (ushort)Marshal.ReadInt16(buffer, 4), Uid = (uint)Marshal.ReadInt32(buffer, 16) };
                }
            }
            finally
            {
                Marshal.FreeHGlobal(buffer);
            }
        }

        private static int Call(string path, IntPtr buffer)
        {
            switch (Current)
            {
                case Layout.MacOs:
                    return RuntimeInformation.ProcessArchitecture == Architecture.X64 ? Native.lstat_inode64(path, buffer) : Native.lstat(path, buffer);
                default:
                    if (_linuxEntry == 0)
                    {
                        try
                        {
                            return Native.lstat(path, buffer);
                        }
                        catch (EntryPointNotFoundException)
                        {
                            _linuxEntry = 1;
                        }
                    }
                    // _STAT_VER_LINUX: 1 on x86-64, 0 on arm64 (the generic layout).
                    return Native.__lxstat(Current == Layout.LinuxX64 ? 1 : 0, path, buffer);
            }
        }

        private static Layout Detect()
        {
            var arch = RuntimeInformation.ProcessArchitecture;
            if (RuntimeInformation.IsOSPlatform(OSPlatform.OSX))
            {
                return arch == Architecture.X64 || arch == Architecture.Arm64 ? Layout.MacOs : Layout.None;
            }
            if (RuntimeInformation.IsOSPlatform(OSPlatform.Linux))
            {
                if (arch == Architecture.X64) return Layout.LinuxX64;
                if (arch == Architecture.Arm64) return Layout.LinuxArm64;
            }
            return Layout.None;
        }

        private static class Native
        {
            [DllImport("libc", EntryPoint = "lstat", SetLastError = true)]
            internal static extern int lstat([MarshalAs(UnmanagedType.LPUTF8Str)] string path, IntPtr buffer);

            [DllImport("libc", EntryPoint = "lstat$INODE64", SetLastError = true)]
            internal static extern int lstat_inode64([MarshalAs(UnmanagedType.LPUTF8Str)] string path, IntPtr buffer);

            [DllImport("libc", EntryPoint = "__lxstat", SetLastError = true)]
            internal static extern int __lxstat(int version, [MarshalAs(UnmanagedType.LPUTF8Str)] string path, IntPtr buffer);
        }
    }
}
