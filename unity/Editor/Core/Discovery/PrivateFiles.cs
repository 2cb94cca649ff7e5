using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.InteropServices;
using System.Security.Cryptography;
using System.Text;

namespace Tether.Core.Discovery
{
    /// <summary>
    /// Files that hold secrets (tokens): created 0600 in 0700 directories and replaced
    /// atomically, so no reader ever sees one half-written or with wider permissions
    /// (src/discovery/secure-file.ts). On Windows, modes do not apply: Tether relies on the ACLs
    /// of the user's profile directory, and only the atomic replacement remains.
    /// </summary>
    public static class PrivateFiles
    {
        /// <summary>Mode bits that let other users read or change a file or enter a directory.</summary>
        public const int OpenToOthers = 0x3F; // 0077

        private const int Sticky = 0x200;  // 01000: a directory shared by design (/tmp)
        private const int PrivateDirectoryMode = 0x1C0; // 0700
        private const int PrivateFileMode = 0x180;       // 0600

        /// <summary>
        /// Makes <paramref name="dir"/> (0700, with any missing parents) or checks the one there:
        /// one of this user's with wider permissions is tightened to 0700; a symbolic link, a
        /// directory another user owns, a sticky (shared) one, or one inside a folder another user
        /// owns (a TETHER_HOME of someone else's) throws UnsafeDirectoryException, the last before
        /// anything is made, since whoever controls it could plant or read the secrets put in it.
        /// </summary>
        public static void EnsurePrivateDirectory(string dir)
        {
            if (!PosixFiles.IsPosix)
            {
                Directory.CreateDirectory(dir);
                return;
            }
            var uid = PosixFiles.CurrentUserId;
            var above = ForeignFolderAbove(dir, uid);
            if (above != null)
            {
                throw new UnsafeDirectoryException(
                    dir,
                    $"it lies inside {above.Value.Path}, which belongs to another user (uid {above.Value.Uid}; this process runs as uid {uid})",
                    $"Whoever owns it could rename what Tether writes there and put their own in its place, so nothing was written. Set TETHER_HOME to a directory of your own (for example one made by `mktemp -d`), or ask the owner of {above.Value.Path} to give it to you.");
            }
            try
            {
                CreateMissing(dir);
            }
            catch (IOException) when (PosixFiles.IsSymlink(dir))
            {
                // A dangling symbolic link fails here: say below what it is.
            }
            if (PosixFiles.IsSymlink(dir)) throw new UnsafeDirectoryException(dir, $"it is a symbolic link (to {ReadLink(dir)})");
            if (!PosixStat.IsSupported)
            {
                // No stat layout for this platform: nothing to check with, but the mode can still be set.
                PosixFiles.Chmod(dir, PrivateDirectoryMode);
                return;
            }
            var stat = PosixStat.Lstat(dir);
            if (!stat.HasValue) throw new DirectoryNotFoundException($"{dir} vanished while Tether made it private.");
            if (stat.Value.Uid != uid)
            {
                throw new UnsafeDirectoryException(dir, $"it belongs to another user (uid {stat.Value.Uid}; this process runs as uid {uid})");
            }
            var mode = stat.Value.Mode & 0xFFF;
            // A sticky directory is shared by design (/tmp, run as root, is "ours"): never narrowed.
            if ((mode & Sticky) != 0)
            {
                throw new UnsafeDirectoryException(
                    dir,
                    $"it is a directory shared with every user (mode {Convert.ToString(mode, 8)}, like /tmp), which Tether will not make private",
                    "Give Tether a directory of its own inside it instead (TETHER_HOME, or the host's recordsDir).");
            }
            if ((mode & OpenToOthers) != 0) PosixFiles.Chmod(dir, PrivateDirectoryMode);
        }

        /// <summary>Writes <paramref name="content"/> as UTF-8 (no BOM); see the byte[] overload.</summary>
        public static void Write(string path, string content) => Write(path, new UTF8Encoding(false).GetBytes(content));

        /// <summary>
        /// Writes the file so that no reader ever sees it half-written or with wider permissions:
        /// its directory is made private (EnsurePrivateDirectory), the bytes go to a new
        /// ".&lt;12 hex&gt;.tmp" beside it (made 0600 before the first byte), which is then renamed over
        /// <paramref name="path"/>. On failure the temporary file is removed.
        /// </summary>
        public static void Write(string path, byte[] content)
        {
            var full = Path.GetFullPath(path);
            var dir = Path.GetDirectoryName(full);
            EnsurePrivateDirectory(dir);
            var temp = Path.Combine(dir, "." + RandomHex(6) + ".tmp");
            try
            {
                // CreateNew: O_EXCL, so a link planted at the temporary name is never followed.
                using (var stream = new FileStream(temp, FileMode.CreateNew, FileAccess.Write, FileShare.None))
                {
                    PosixFiles.Chmod(temp, PrivateFileMode);
                    stream.Write(content, 0, content.Length);
                    stream.Flush(true);
                }
                FileMoves.MoveOver(temp, full);
            }
            catch
            {
                try { File.Delete(temp); } catch (Exception) { /* it was never made, or is gone already */ }
                throw;
            }
        }

        /// <summary>
        /// The nearest existing folder above <paramref name="dir"/> that another user owns, with
        /// its owner (src/discovery/folder-trust.ts foreignFolderAbove): root is excepted (it owns
        /// /, /tmp and /home, and can do anything anyway). Whoever owns it may rename what Tether
        /// makes inside, however private, and put their own in its place. A symbolic link is judged
        /// by its own owner and by its target's: either could redirect it. Null when there is
        /// none, and where lstat cannot be read (Windows relies on the profile's ACLs).
        /// </summary>
        internal static (string Path, long Uid)? ForeignFolderAbove(string dir, long uid)
        {
            if (!PosixFiles.IsPosix || !PosixStat.IsSupported || uid < 0) return null;
            var current = Path.GetFullPath(dir);
            var root = Path.GetPathRoot(current);
            if (current.Length > root.Length) current = current.TrimEnd(Path.DirectorySeparatorChar);
            for (var folder = Path.GetDirectoryName(current); !string.IsNullOrEmpty(folder); folder = Path.GetDirectoryName(folder))
            {
                var link = PosixStat.Lstat(folder);
                if (!link.HasValue) continue; // not made yet: it will be made ours
                var owners = new List<long> { link.Value.Uid };
                if ((link.Value.Mode & 0xF000) == 0xA000) // S_IFLNK
                {
                    // "link/." names the folder it leads to: lstat then follows the link.
                    var target = PosixStat.Lstat(folder + Path.DirectorySeparatorChar + ".");
                    if (target.HasValue) owners.Add(target.Value.Uid);
                }
                foreach (var owner in owners)
                {
                    if (owner != uid && owner != 0) return (folder, owner);
                }
            }
            return null;
        }

        private static void CreateMissing(string dir)
        {
            var missing = new Stack<string>();
            for (var current = Path.GetFullPath(dir); !string.IsNullOrEmpty(current) && !Directory.Exists(current) && !PosixFiles.IsSymlink(current); current = Path.GetDirectoryName(current))
            {
                missing.Push(current);
            }
            while (missing.Count > 0)
            {
                var next = missing.Pop();
                Directory.CreateDirectory(next);
                // As mkdir -p with mode 0700: every directory made here is private, not just the last.
                try { PosixFiles.Chmod(next, PrivateDirectoryMode); } catch (IOException) { /* made by someone else meanwhile: checked below if it is the last */ }
            }
        }

        internal static string RandomHex(int bytes)
        {
            var buffer = new byte[bytes];
            using (var random = RandomNumberGenerator.Create()) random.GetBytes(buffer);
            var text = new StringBuilder(bytes * 2);
            foreach (var b in buffer) text.Append(b.ToString("x2"));
            return text.ToString();
        }

        private static string ReadLink(string path)
        {
            try
            {
                var buffer = new byte[4096];
                var length = Native.readlink(path, buffer, (IntPtr)buffer.Length);
                return length.ToInt64() > 0 ? Encoding.UTF8.GetString(buffer, 0, (int)length.ToInt64()) : "somewhere else";
            }
            catch (Exception)
            {
                return "somewhere else";
            }
        }

        private static class Native
        {
            [DllImport("libc", SetLastError = true)]
            internal static extern IntPtr readlink([MarshalAs(UnmanagedType.LPUTF8Str)] string path, byte[] buffer, IntPtr size);
        }
    }
}
