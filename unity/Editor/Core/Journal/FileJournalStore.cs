using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Journal
{
    /// <summary>
    /// An append-only JSON-lines file (mode 0600 on macOS and Linux); the last line for a callId
    /// wins. A record counts only once its newline is written: a line without one was torn by a
    /// crash or a failed write (a full disk, an I/O error) before its save returned, so Load skips
    /// it and the next Save cuts it off before appending, and it can never swallow the record
    /// written after it. Compaction rewrites the file to a temporary one, syncs it, renames it over
    /// the journal and syncs the directory.
    /// </summary>
    public sealed class FileJournalStore : IJournalStore
    {
        private const byte Newline = (byte)'\n';
        private static readonly Encoding Utf8 = new UTF8Encoding(false);
        private readonly JournalDisk _disk;

        public FileJournalStore(string path) : this(path, JournalDisk.Real)
        {
        }

        internal FileJournalStore(string path, JournalDisk disk)
        {
            Path = System.IO.Path.GetFullPath(path ?? throw new ArgumentNullException(nameof(path)));
            _disk = disk ?? JournalDisk.Real;
        }

        public string Path { get; }

        private string Directory => System.IO.Path.GetDirectoryName(Path);

        public IReadOnlyList<JournalEntry> Load()
        {
            AdoptFinishedCompaction();
            // Opened for writing first: a journal that cannot be written is found now, before the
            // host serves anyone, not at its first call with side effects.
            using (OpenJournal()) { }
            var bytes = File.ReadAllBytes(Path);
            var latest = new OrderedEntries();
            var start = 0;
            for (var i = 0; i < bytes.Length; i++)
            {
                if (bytes[i] != Newline) continue;
                var entry = Parse(bytes, start, i - start);
                if (entry != null) latest.Set(entry.CallId, entry);
                start = i + 1;
            }
            // Whatever follows the last newline is a torn record: skipped.
            return new List<JournalEntry>(latest.Values);
        }

        public void Save(JournalEntry entry, bool sync)
        {
            var line = Utf8.GetBytes(entry.ToJson().ToString(Formatting.None) + "\n");
            using (var file = OpenJournal())
            {
                var size = CutTornTail(file);
                file.Position = size;
                try
                {
                    _disk.Write(file, line);
                    if (sync) _disk.Sync(file);
                }
                catch
                {
                    // Take back what part of the line got written; if even that fails, the next save cuts it.
                    try { _disk.Truncate(file, size); }
                    catch { /* The fragment stays until then; Load skips it meanwhile. */ }
                    throw;
                }
            }
        }

        public void Rewrite(IReadOnlyList<JournalEntry> entries)
        {
            System.IO.Directory.CreateDirectory(Directory);
            var temp = Path + ".tmp";
            var text = new StringBuilder();
            foreach (var entry in entries) text.Append(entry.ToJson().ToString(Formatting.None)).Append('\n');
            try
            {
                using (var file = _disk.Open(temp, FileMode.Create))
                {
                    _disk.RestrictToOwner(temp);
                    _disk.Write(file, Utf8.GetBytes(text.ToString()));
                    // On the disk before it replaces the journal: a power cut after the rename must
                    // not leave an empty or partial file in its place.
                    _disk.Sync(file);
                }
            }
            catch
            {
                try { File.Delete(temp); } catch { /* give a full disk its space back when we can */ }
                throw;
            }
            _disk.Replace(temp, Path);
            _disk.SyncDirectory(Directory);
        }

        /// <summary>
        /// A compaction's file with no journal beside it: the journal was moved away and this file
        /// not moved into its place (a replace that failed half-way, as Windows' ReplaceFile can,
        /// in a version before MoveFileEx replaced it). It was written and synced whole before any
        /// move was tried, so it is the journal; starting an empty one instead would forget every
        /// call in it, and run them again.
        /// </summary>
        private void AdoptFinishedCompaction()
        {
            var temp = Path + ".tmp";
            if (File.Exists(Path) || !File.Exists(temp)) return;
            File.Move(temp, Path);
            _disk.SyncDirectory(Directory);
        }

        /// <summary>Opens the journal, creating it (and its folder) with mode 0600 when missing.</summary>
        private FileStream OpenJournal()
        {
            System.IO.Directory.CreateDirectory(Directory);
            var existed = File.Exists(Path);
            var file = _disk.Open(Path, FileMode.OpenOrCreate);
            if (!existed)
            {
                try { _disk.RestrictToOwner(Path); }
                catch { file.Dispose(); throw; }
            }
            return file;
        }

        /// <summary>Cuts the file back to its last newline when it ends in a torn line; returns its size then.</summary>
        private long CutTornTail(FileStream file)
        {
            var size = file.Length;
            if (size == 0) return 0;
            file.Position = size - 1;
            if (file.ReadByte() == Newline) return size;
            var window = new byte[64 * 1024];
            var end = size;
            var found = false;
            while (!found && end > 0)
            {
                var from = Math.Max(0, end - window.Length);
                var count = (int)(end - from);
                file.Position = from;
                var read = ReadFully(file, window, count);
                var newline = read > 0 ? Array.LastIndexOf(window, Newline, read - 1, read) : -1;
                if (newline >= 0)
                {
                    end = from + newline + 1;
                    found = true;
                }
                else end = from;
            }
            _disk.Truncate(file, end);
            return end;
        }

        private static int ReadFully(FileStream file, byte[] buffer, int count)
        {
            var total = 0;
            while (total < count)
            {
                var read = file.Read(buffer, total, count - total);
                if (read <= 0) break;
                total += read;
            }
            return total;
        }

        private static JournalEntry Parse(byte[] bytes, int offset, int count)
        {
            if (count == 0) return null;
            try
            {
                var text = Utf8.GetString(bytes, offset, count);
                using (var reader = new JsonTextReader(new StringReader(text)))
                {
                    // Strings stay strings (no dates guessed), and arguments as deep as a client sent them load back.
                    reader.DateParseHandling = DateParseHandling.None;
                    reader.MaxDepth = null;
                    return JournalEntry.FromJson(JToken.ReadFrom(reader) as JObject);
                }
            }
            catch (Exception)
            {
                // Not a record (damaged, or valid JSON that is no usable entry, whatever the
                // reason): the entry before it still stands, and the load goes on.
                return null;
            }
        }
    }
}
