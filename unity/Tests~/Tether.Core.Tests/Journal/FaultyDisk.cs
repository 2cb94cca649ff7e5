using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using System.Text.RegularExpressions;
using Tether.Core.Journal;

namespace Tether.Core.Tests.Journal
{
    /// <summary>
    /// The real disk for a FileJournalStore, made to fail on demand: a write whose text matches
    /// fails part-way, as on a full disk (its first half lands, then "No space left on device"),
    /// and truncation can fail too. Ops logs what reaches the disk, by file name:
    /// "write journal.jsonl running", "sync journal.jsonl", "rename journal.jsonl.tmp", …
    /// </summary>
    internal sealed class FaultyDisk : JournalDisk
    {
        private readonly object _gate = new object();
        private readonly List<string> _ops = new List<string>();
        private Func<string, bool> _failing;
        private bool _truncateFails;

        public List<string> Ops
        {
            get { lock (_gate) return _ops.ToList(); }
        }

        public void ClearOps()
        {
            lock (_gate) _ops.Clear();
        }

        /// <summary>From now on, writes whose text matches fail part-way (and truncation fails too, if told).</summary>
        public void Fail(Func<string, bool> when, bool truncateFails = false)
        {
            _failing = when;
            _truncateFails = truncateFails;
        }

        public void Heal()
        {
            _failing = null;
            _truncateFails = false;
        }

        public void Record(string op)
        {
            lock (_gate) _ops.Add(op);
        }

        public override void Write(FileStream file, byte[] bytes)
        {
            var text = Encoding.UTF8.GetString(bytes);
            var states = string.Join(" ", Regex.Matches(text, "\"state\":\"(\\w+)\"").Cast<Match>().Select(m => m.Groups[1].Value));
            Record("write " + Path.GetFileName(file.Name) + " " + states);
            if (_failing != null && _failing(text))
            {
                file.Write(bytes, 0, bytes.Length / 2);
                file.Flush();
                throw new IOException("No space left on device", 28);
            }
            base.Write(file, bytes);
        }

        public override void Truncate(FileStream file, long length)
        {
            if (_truncateFails) throw new IOException("Input/output error", 5);
            base.Truncate(file, length);
        }

        public override void Sync(FileStream file)
        {
            Record("sync " + Path.GetFileName(file.Name));
            base.Sync(file);
        }

        public override void Replace(string from, string to)
        {
            Record("rename " + Path.GetFileName(from));
            base.Replace(from, to);
        }

        public override void SyncDirectory(string directory)
        {
            Record("sync directory " + Path.GetFileName(directory));
            base.SyncDirectory(directory);
        }
    }

    /// <summary>A store that fails the saves a test picks, before anything is written (a journal that cannot be written).</summary>
    internal sealed class FailingStore : IJournalStore
    {
        private readonly IJournalStore _inner;

        public FailingStore(IJournalStore inner)
        {
            _inner = inner;
        }

        /// <summary>Saves for which this returns true throw "No space left on device".</summary>
        public Func<JournalEntry, bool> FailWhen;

        public IReadOnlyList<JournalEntry> Load() => _inner.Load();

        public void Save(JournalEntry entry, bool sync)
        {
            if (FailWhen != null && FailWhen(entry)) throw new IOException("No space left on device", 28);
            _inner.Save(entry, sync);
        }

        public void Rewrite(IReadOnlyList<JournalEntry> entries) => _inner.Rewrite(entries);
    }

    internal static class TempDirs
    {
        public static string Create(string prefix)
        {
            var dir = Path.Combine(Path.GetTempPath(), prefix + Guid.NewGuid().ToString("N").Substring(0, 12));
            Directory.CreateDirectory(dir);
            return dir;
        }

        public static void Remove(string dir)
        {
            try { Directory.Delete(dir, true); } catch (IOException) { } catch (UnauthorizedAccessException) { }
        }
    }
}
