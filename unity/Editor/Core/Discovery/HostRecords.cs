using System;
using System.IO;

namespace Tether.Core.Discovery
{
    /// <summary>
    /// Host records on disk (src/discovery/host-record.ts, protocol.md §12): one file per
    /// instance, &lt;dir&gt;/&lt;instanceId&gt;.json, written 0600 in a 0700 directory and replaced
    /// atomically (it holds the token); rewritten when the port changes, removed on a clean exit,
    /// kept on a reload.
    /// </summary>
    public static class HostRecords
    {
        /// <summary>&lt;dir&gt;/&lt;instanceId&gt;.json</summary>
        public static string PathOf(string dir, string instanceId) => Path.Combine(dir, instanceId + ".json");

        /// <summary>
        /// Writes (or replaces) the record: the directory is made private first (0700, or
        /// UnsafeDirectoryException when it is a link or someone else's), then the file goes in
        /// whole, 0600, through a temporary file renamed over it (PrivateFiles.Write).
        /// Returns the record's path.
        /// </summary>
        public static string Write(string dir, HostRecord record)
        {
            if (record == null) throw new ArgumentNullException(nameof(record));
            if (string.IsNullOrEmpty(record.InstanceId)) throw new ArgumentException("A host record needs an instanceId (its file name).", nameof(record));
            var path = PathOf(dir, record.InstanceId);
            PrivateFiles.Write(path, record.ToFileText());
            return path;
        }

        /// <summary>Removes the record; nothing happens when there is none (or no directory).</summary>
        public static void Remove(string dir, string instanceId)
        {
            try
            {
                File.Delete(PathOf(dir, instanceId));
            }
            catch (DirectoryNotFoundException)
            {
                // No directory, so no record: what removing it wanted.
            }
        }
    }
}
