using System;
using System.IO;
using System.Runtime.InteropServices;
using Tether.Core.Discovery;

namespace Tether.Core.Journal
{
    /// <summary>
    /// The file operations FileJournalStore uses, one virtual method each, so that a test can make
    /// a write fail part-way (a full disk) and watch what reaches the disk and in which order.
    /// </summary>
    internal class JournalDisk
    {
        public static readonly JournalDisk Real = new JournalDisk();

        /// <summary>
        /// Opens (creating it if missing) a file for reading and writing. Unbuffered (buffer size 1):
        /// a write that fails must not leave bytes in a buffer that a later flush or close would
        /// append after the file was cut back.
        /// </summary>
        public virtual FileStream Open(string path, FileMode mode) =>
            new FileStream(path, mode, FileAccess.ReadWrite, FileShare.ReadWrite | FileShare.Delete, 1, FileOptions.None);

        public virtual void Write(FileStream file, byte[] bytes)
        {
            file.Write(bytes, 0, bytes.Length);
            file.Flush();
        }

        /// <summary>Puts what was written on the disk itself (fsync; FlushFileBuffers on Windows).</summary>
        public virtual void Sync(FileStream file) => file.Flush(true);

        public virtual void Truncate(FileStream file, long length) => file.SetLength(length);

        /// <summary>Moves <paramref name="from"/> over <paramref name="to"/> in one step (FileMoves.MoveOver says how, on each system).</summary>
        public virtual void Replace(string from, string to) => FileMoves.MoveOver(from, to);

        /// <summary>
        /// Makes a rename in the directory durable. Windows cannot open a directory to sync it (NTFS
        /// journals the rename as metadata), so it is skipped there; elsewhere a failure is let go:
        /// the rename has happened, and only a power cut in the next moments could undo it.
        /// </summary>
        public virtual void SyncDirectory(string directory)
        {
            if (!PosixFiles.IsPosix) return;
            try
            {
                var fd = Native.open(directory, 0 /* O_RDONLY, on Linux and macOS */);
                if (fd < 0) return;
                try { Native.fsync(fd); }
                finally { Native.close(fd); }
            }
            catch (Exception error) when (error is DllNotFoundException || error is EntryPointNotFoundException)
            {
                // No libc to call: the rename stands, only less surely across a power cut.
            }
        }

        /// <summary>Only its owner may read the journal (it holds every call's arguments and results): 0600.</summary>
        public virtual void RestrictToOwner(string path) => PosixFiles.Chmod(path, 0x180);

        private static class Native
        {
            [DllImport("libc", SetLastError = true)]
            internal static extern int open([MarshalAs(UnmanagedType.LPUTF8Str)] string path, int flags);

            [DllImport("libc", SetLastError = true)]
            internal static extern int fsync(int fd);

            [DllImport("libc", SetLastError = true)]
            internal static extern int close(int fd);
        }
    }
}
