using System.IO;
using System.Runtime.InteropServices;
using System.Threading;

namespace Tether.Core.Discovery
{
    /// <summary>
    /// Putting a file written beside its target in the target's place, in one step: how the host
    /// replaces its record, its private files, the journal's compaction and the kit's counters,
    /// so that a reader opens the old file or the new one, never half of one.
    /// </summary>
    internal static class FileMoves
    {
        private const int WindowsAttempts = 5;

        /// <summary>
        /// Moves <paramref name="from"/> over <paramref name="to"/>, which may or may not exist.
        /// - macOS and Linux: netstandard2.1 has no File.Move(…, overwrite), so File.Replace (with
        ///   no backup: rename(2) in .NET and Mono) when the target exists, else File.Move
        ///   (link(2)+unlink(2) or rename(2)); either way the target appears whole in one step. The
        ///   target may appear or vanish between the check and the call (another writer, a client
        ///   deleting a stale record): then the other call is tried.
        /// - Windows: MoveFileEx(REPLACE_EXISTING | WRITE_THROUGH), whether the target exists or
        ///   not. Not File.Replace: its ReplaceFile can fail half-way (ERROR_UNABLE_TO_MOVE_REPLACEMENT,
        ///   when something holds the new file open, as an antivirus scanning a file just written
        ///   does) with the old file gone and the new one not in its place. MoveFileEx fails whole,
        ///   leaving both; it is tried again a few times while the file is held, since such a hold
        ///   lasts moments.
        /// </summary>
        public static void MoveOver(string from, string to)
        {
            if (PosixFiles.IsPosix)
            {
                MoveOverPosix(from, to);
                return;
            }
            for (var attempt = 1; ; attempt++)
            {
                if (Windows.MoveFileEx(from, to, Windows.ReplaceExisting | Windows.WriteThrough)) return;
                var error = Marshal.GetLastWin32Error();
                var held = error == Windows.AccessDenied || error == Windows.SharingViolation;
                if (!held || attempt == WindowsAttempts) throw new IOException("Could not move " + from + " over " + to + " (Windows error " + error + ").", error);
                Thread.Sleep(20 * attempt);
            }
        }

        private static void MoveOverPosix(string from, string to)
        {
            for (var attempt = 1; ; attempt++)
            {
                try
                {
                    if (File.Exists(to)) File.Replace(from, to, null, true);
                    else File.Move(from, to);
                    return;
                }
                catch (IOException) when (attempt < 4 && File.Exists(from))
                {
                    // Raced with whoever created or removed the target: look again.
                }
            }
        }

        private static class Windows
        {
            internal const int ReplaceExisting = 0x1;
            internal const int WriteThrough = 0x8;
            internal const int AccessDenied = 5;
            internal const int SharingViolation = 32;

            [DllImport("kernel32", EntryPoint = "MoveFileExW", CharSet = CharSet.Unicode, SetLastError = true)]
            internal static extern bool MoveFileEx(string existingFileName, string newFileName, int flags);
        }
    }
}
