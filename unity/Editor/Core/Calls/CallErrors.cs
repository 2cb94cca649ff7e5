using System;
using System.IO;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;

namespace Tether.Core.Calls
{
    /// <summary>
    /// The errors the call engine raises, each saying what happened and what to do
    /// (src/host/call-errors.ts), with the data fields protocol.md §7.4–§8 give them.
    /// </summary>
    internal static class CallErrors
    {
        public static TetherException Conflict(string callId, string knownTool) => new TetherException(
            ErrorCodes.CallIdConflict,
            "callId \"" + callId + "\" was already used for a different call (tool \"" + knownTool + "\"). Use a fresh callId for a new call.",
            new JObject { ["callId"] = callId, ["tool"] = knownTool });

        public static TetherException UnknownOnAttach(string callId) => new TetherException(
            ErrorCodes.UnknownCall,
            "The host has no record of call \"" + callId + "\": it was never received, or its result expired. Its outcome is unknown; check the editor's state before calling again.",
            new JObject { ["callId"] = callId });

        public static TetherException Unknown(string callId) => new TetherException(
            ErrorCodes.UnknownCall,
            "The host has no record of call \"" + callId + "\" (never received, or expired after the retention).",
            new JObject { ["callId"] = callId });

        public static TetherException Duplicate(string tool, string callId, string inFlight, string inFlightState) => new TetherException(
            ErrorCodes.DuplicateCall,
            "An identical \"" + tool + "\" call is already " + inFlightState + " (callId \"" + inFlight + "\"). Wait for it (calls/start with that callId attaches) instead of starting another.",
            new JObject { ["callId"] = callId, ["inFlight"] = inFlight });

        public static TetherException TooDeep(string tool) => new TetherException(
            ErrorCodes.InvalidArguments,
            "Invalid arguments for tool \"" + tool + "\": the arguments are nested too deeply to be read (thousands of levels); send them flatter. Fix the field and call again; tools/list has the input schema.",
            new JObject { ["tool"] = tool, ["field"] = "", ["problem"] = "are nested too deeply to be read (thousands of levels); send them flatter" });

        public static TetherException NotAccepted(string callId, string tool, Exception failure) => new TetherException(
            ErrorCodes.InternalError,
            "The host could not write call \"" + callId + "\" to its journal (" + failure.Message + "), so it did not accept it: nothing ran. " + JournalRemedy(failure) + " and send it again.",
            new JObject { ["callId"] = callId, ["tool"] = tool, ["started"] = false });

        public static TetherException NotStarted(string callId, string tool, Exception failure) => new TetherException(
            ErrorCodes.InternalError,
            "The host could not write to its journal that \"" + tool + "\" was starting (" + failure.Message + "), so it did not run it. " + JournalRemedy(failure) + ", then call again with a fresh callId.",
            new JObject { ["callId"] = callId, ["tool"] = tool, ["started"] = false });

        public static TetherException WithdrawalNotJournaled(string callId, Exception failure) => new TetherException(
            ErrorCodes.InternalError,
            "The host could not write the cancellation of call \"" + callId + "\" to its journal (" + failure.Message + "), so nothing was cancelled. " + JournalRemedy(failure) + " and cancel again.",
            new JObject { ["callId"] = callId });

        public static TetherException OutcomeNotJournaled(string callId, string tool, Exception failure) => new TetherException(
            ErrorCodes.OutcomeUnknown,
            "The host could not write the outcome of call \"" + callId + "\" to its journal (" + failure.Message + "). \"" + tool + "\" has not run, but the journal still shows it queued, so it may run if the host restarts before it can write its journal again. Check the editor's state before running it again.",
            new JObject { ["callId"] = callId, ["tool"] = tool });

        public static TetherException Withdrawn(string callId, string reason, bool started, int others) => new TetherException(
            ErrorCodes.Cancelled,
            "Call \"" + callId + "\" was cancelled for this requester: " + reason + " The shared execution continues for " + others + " other requester(s).",
            new JObject { ["callId"] = callId, ["started"] = started, ["shared"] = true });

        public static TetherException UnclaimedAfterRestart(string callId) => new TetherException(
            ErrorCodes.Cancelled,
            "Call \"" + callId + "\" was cancelled before it started: it was queued when the editor stopped, and no client came back for it once the editor started again, so it did not run. Call it again if it is still wanted.",
            new JObject { ["callId"] = callId, ["started"] = false });

        public static TetherException CancelledQueued(string callId, string reason) => new TetherException(
            ErrorCodes.Cancelled,
            "Call \"" + callId + "\" was cancelled before it started: " + reason,
            new JObject { ["callId"] = callId, ["started"] = false });

        public static TetherException CancelledRunning(string callId, string reason) => new TetherException(
            ErrorCodes.Cancelled,
            "Call \"" + callId + "\" was cancelled while running: " + reason,
            new JObject { ["callId"] = callId, ["started"] = true });

        public static TetherException EveryRequesterWithdrew(string callId) => new TetherException(
            ErrorCodes.Cancelled,
            "Call \"" + callId + "\" was cancelled before it started: every requester had cancelled.",
            new JObject { ["callId"] = callId, ["started"] = false });

        public static TetherException DeadlineExceeded(string callId, string tool, long deadlineMs) => new TetherException(
            ErrorCodes.DeadlineExceeded,
            "\"" + tool + "\" ran past its " + deadlineMs + " ms deadline and was cancelled. Raise the deadline for longer work.",
            new JObject { ["callId"] = callId, ["deadlineMs"] = deadlineMs });

        /// <summary>The tool did not stop within the grace after its deadline: the host stopped waiting for it (protocol.md §8.6).</summary>
        public static TetherException GivenUpAfterDeadline(string callId, string tool, long deadlineMs, long graceMs) => new TetherException(
            ErrorCodes.OutcomeUnknown,
            "\"" + tool + "\" did not stop within " + graceMs + " ms of its " + deadlineMs + " ms deadline (it did not heed its cancellation), so the host stopped waiting for it. It may still be running, and what it did is unknown: check the editor before calling it again.",
            new JObject { ["callId"] = callId, ["tool"] = tool, ["deadlineMs"] = deadlineMs, ["graceMs"] = graceMs });

        public static TetherException SharedOutcomeUnknown(string callId) => new TetherException(
            ErrorCodes.OutcomeUnknown,
            "The call \"" + callId + "\" shared an execution whose outcome is unknown.");

        public static TetherException NoClient(string callId, bool elicit) => new TetherException(
            ErrorCodes.NoClient,
            "No connected client can answer a " + (elicit ? "question (elicitation)" : "sampling request") + " for call \"" + callId + "\".",
            new JObject { ["callId"] = callId });

        /// <summary>The request was abandoned with notifications/cancelled: it ends, the call carries on.</summary>
        public static TetherException Abandoned(string callId) => new TetherException(
            ErrorCodes.Cancelled,
            "The client abandoned this calls/start request; call \"" + callId + "\" carries on (calls/start with its callId attaches again, calls/cancel cancels it).",
            new JObject { ["callId"] = callId });

        /// <summary>An exception the tool threw: its own typed error, else TOOL_FAILED naming its message.</summary>
        public static TetherException ToolFailure(string tool, Exception error)
        {
            if (error is TetherException typed) return typed;
            return new TetherException(ErrorCodes.ToolFailed, "Tool \"" + tool + "\" failed: " + error.Message, new JObject { ["tool"] = tool });
        }

        /// <summary>What to do about a journal the system would not let the host write, from the system's reason.</summary>
        public static string JournalRemedy(Exception failure)
        {
            const string diskSpace = "Free disk space";
            const string permissions = "Let the editor write its project's Library folder (permissions, or a read-only disk)";
            const string folder = "Open the editor on a project folder it can write";
            if (failure is UnauthorizedAccessException) return permissions;
            if (failure is DirectoryNotFoundException || failure is FileNotFoundException) return folder;
            if (failure is IOException)
            {
                // .NET on macOS and Linux carries errno in HResult; Windows and Mono a Win32 error code.
                switch (failure.HResult & 0xFFFF)
                {
                    case 28: // ENOSPC
                    case 39: // ERROR_HANDLE_DISK_FULL
                    case 112: // ERROR_DISK_FULL
                    case 122: // EDQUOT on Linux
                    case 69: // EDQUOT on macOS
                        return diskSpace;
                    case 1: // EPERM
                    case 5: // ERROR_ACCESS_DENIED
                    case 13: // EACCES
                    case 30: // EROFS
                        return permissions;
                    case 2: // ENOENT
                    case 3: // ERROR_PATH_NOT_FOUND
                    case 17: // EEXIST: a file where a folder of the path should be
                    case 20: // ENOTDIR
                        return folder;
                    case 21: // EISDIR
                        return "Give the journal a file's path, not a folder's";
                }
                var message = failure.Message ?? "";
                if (message.IndexOf("space", StringComparison.OrdinalIgnoreCase) >= 0 || message.IndexOf("disk full", StringComparison.OrdinalIgnoreCase) >= 0) return diskSpace;
            }
            return "Fix the disk or the project folder";
        }
    }
}
