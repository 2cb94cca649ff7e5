using System;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Dispatch;
using UnityEditor.PackageManager;
using UnityEditor.PackageManager.Requests;

namespace Tether.Unity.Packages
{
    /// <summary>
    /// A Package Manager request (Client.List, Add, Remove) waited for as the Package Manager's
    /// documentation says: polled on each editor tick until IsCompleted, never by blocking the
    /// main thread (the request completes on a later tick). The Package Manager has no way to stop
    /// a request: cancelling ends the wait only for one that changes nothing (a list); an add or a
    /// remove goes on, and the call ends with what it did.
    /// </summary>
    internal static class PackageRequests
    {
        /// <param name="changes">Whether the request changes the project (add, remove): then a cancel does not end the wait.</param>
        public static Task<object> Await<T>(string tool, IToolContext context, EditorServices services, string doing, bool changes, Func<T> start, Func<T, object> answer) where T : Request
        {
            var wait = new MainThreadWait<object>(context, services.MainThread, null, stoppable: !changes);
            context.Progress(null, null, doing);
            T request;
            try
            {
                request = start();
            }
            catch (Exception error)
            {
                wait.Fail(error);
                return wait.Task;
            }
            void Check()
            {
                if (wait.IsDone || !request.IsCompleted) return;
                if (request.Status != StatusCode.Success)
                {
                    wait.Fail(Failure(tool, doing, request.Error));
                    return;
                }
                try
                {
                    wait.Complete(answer(request));
                }
                catch (Exception error)
                {
                    wait.Fail(error);
                }
            }
            Check();
            wait.EveryTick(Check);
            return wait.Task;
        }

        /// <summary>
        /// A package or version the registry does not have is NOT_FOUND, as the sandbox says it: the
        /// agent fixes the name, where any other failure (network, conflict) is the Package Manager's.
        /// </summary>
        private static TetherException Failure(string tool, string doing, Error error)
        {
            var why = error?.message ?? "no reason given";
            var data = new JObject { ["tool"] = tool, ["reason"] = why };
            if (error != null && error.errorCode == ErrorCode.NotFound)
                return new TetherException(ErrorCodes.NotFound, tool + ": the Package Manager found no such package or version (" + doing + "): " + why + ". Check the name and version; list_packages shows what the project has.", data);
            return new TetherException(ErrorCodes.ToolFailed, "The Package Manager could not finish (" + doing + "): " + why + ". Unity's console may say more.", data);
        }
    }
}
