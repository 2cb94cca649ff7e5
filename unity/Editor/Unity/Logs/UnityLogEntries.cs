using System;
using System.Collections.Generic;
using System.Reflection;
using UnityEditor;

namespace Tether.Unity.Logs
{
    /// <summary>
    /// The one class that reaches Unity's own console, internal UnityEditor.LogEntries and
    /// UnityEditor.LogEntry, by reflection: to read what was logged before this domain's
    /// capture began (the console outlives domain reloads; its entries from before the package
    /// loaded, compile errors included, are only there), and to clear it. Unity changes these
    /// internals between versions (LogEntry.condition became message; callstackTextStartUTF16
    /// appeared), so every member is looked up by name and a missing one makes the feature
    /// report a note instead of throwing.
    /// </summary>
    internal sealed class UnityLogEntries
    {
        private const BindingFlags StaticMembers = BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic;
        private const BindingFlags InstanceMembers = BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic;

        private readonly MethodInfo _start;
        private readonly MethodInfo _get;
        private readonly MethodInfo _end;
        private readonly MethodInfo _clear;
        private readonly Type _entryType;
        private readonly FieldInfo _text;
        private readonly FieldInfo _file;
        private readonly FieldInfo _line;
        private readonly FieldInfo _mode;
        private readonly FieldInfo _stackStart;

        public UnityLogEntries()
        {
            try
            {
                var editor = typeof(EditorApplication).Assembly;
                var entries = editor.GetType("UnityEditor.LogEntries") ?? editor.GetType("UnityEditorInternal.LogEntries");
                _entryType = editor.GetType("UnityEditor.LogEntry") ?? editor.GetType("UnityEditorInternal.LogEntry");
                if (entries == null || _entryType == null)
                {
                    Note = "this Unity has no UnityEditor.LogEntries: entries logged before Tether loaded in this domain are not included";
                    return;
                }
                _start = entries.GetMethod("StartGettingEntries", StaticMembers, null, Type.EmptyTypes, null);
                _end = entries.GetMethod("EndGettingEntries", StaticMembers, null, Type.EmptyTypes, null);
                _get = entries.GetMethod("GetEntryInternal", StaticMembers, null, new[] { typeof(int), _entryType }, null);
                _clear = entries.GetMethod("Clear", StaticMembers, null, Type.EmptyTypes, null);
                _text = _entryType.GetField("message", InstanceMembers) ?? _entryType.GetField("condition", InstanceMembers);
                _file = _entryType.GetField("file", InstanceMembers);
                _line = _entryType.GetField("line", InstanceMembers);
                _mode = _entryType.GetField("mode", InstanceMembers);
                _stackStart = _entryType.GetField("callstackTextStartUTF16", InstanceMembers);
                if (_start == null || _end == null || _get == null || _text == null || _mode == null)
                {
                    Note = "this Unity's LogEntries differ from what Tether knows: entries logged before Tether loaded in this domain are not included";
                }
            }
            catch (Exception error)
            {
                Note = "Unity's console could not be read (" + error.Message + "): entries logged before Tether loaded in this domain are not included";
            }
        }

        /// <summary>Why reading Unity's console is not possible here, or null when it is.</summary>
        public string Note { get; }

        public bool CanRead => Note == null;

        public bool CanClear => _clear != null;

        /// <summary>Every entry in Unity's console, oldest first; empty (never throws) when it cannot be read.</summary>
        public List<ConsoleEntry> ReadAll(out string note)
        {
            note = Note;
            var read = new List<ConsoleEntry>();
            if (!CanRead) return read;
            var started = false;
            try
            {
                var rows = Convert.ToInt32(_start.Invoke(null, null));
                started = true;
                var entry = Activator.CreateInstance(_entryType, nonPublic: true);
                var arguments = new object[2];
                for (var row = 0; row < rows; row++)
                {
                    arguments[0] = row;
                    arguments[1] = entry;
                    if (_get.Invoke(null, arguments) is bool found && !found) continue;
                    read.Add(ToEntry(entry));
                }
            }
            catch (Exception error)
            {
                note = "Unity's console could not be read (" + (error.InnerException ?? error).Message + "): entries logged before Tether loaded in this domain may be missing";
            }
            finally
            {
                if (started)
                {
                    try { _end.Invoke(null, null); } catch { /* nothing more to release */ }
                }
            }
            return read;
        }

        /// <summary>Clears Unity's console window; false (and a note) when this Unity does not allow it.</summary>
        public bool Clear(out string note)
        {
            note = null;
            if (_clear == null)
            {
                note = Note ?? "this Unity's LogEntries has no Clear: the console window keeps its entries";
                return false;
            }
            try
            {
                _clear.Invoke(null, null);
                return true;
            }
            catch (Exception error)
            {
                note = "Unity's console could not be cleared (" + (error.InnerException ?? error).Message + ")";
                return false;
            }
        }

        private ConsoleEntry ToEntry(object entry)
        {
            var text = _text.GetValue(entry) as string;
            var stackStart = _stackStart != null ? Convert.ToInt32(_stackStart.GetValue(entry)) : -1;
            var (message, stackTrace) = ConsoleLevels.SplitConsoleText(text, stackStart);
            var mode = Convert.ToInt32(_mode.GetValue(entry));
            var file = _file?.GetValue(entry) as string;
            var line = _line != null ? Convert.ToInt32(_line.GetValue(entry)) : 0;
            return new ConsoleEntry(ConsoleLevels.FromLogEntryMode(mode), message, null, stackTrace, file, line);
        }
    }
}
