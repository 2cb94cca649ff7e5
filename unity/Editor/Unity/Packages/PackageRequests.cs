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
    /// main thread (the request completes on a later tick). Cancelling the call ends the wait; the
    /// Package Manager has no way to stop a request, so it finishes on its own.
    /// </summary>
    internal static class PackageRequests
    {
        public static Task<object> Await<T>(IToolContext context, EditorServices services, string doing, Func<T> start, Func<T, object> answer) where T : Request
        {
            var wait = new MainThreadWait<object>(context, services.MainThread, null);
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
