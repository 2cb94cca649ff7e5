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
        public static Task<object> Await<T>(IToolContext context, EditorServices services, string doing, bool changes, Func<T> start, Func<T, object> answer) where T : Request
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
                    var why = request.Error?.message ?? "no reason given";
                    wait.Fail(new TetherException(ErrorCodes.ToolFailed, "The Package Manager could not finish (" + doing + "): " + why + ". Unity's console may say more.", new JObject { ["reason"] = why }));
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
    }
}
