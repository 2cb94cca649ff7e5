using System;
using System.Collections;
using System.Collections.Generic;
using UnityEditor.PackageManager.Requests;

// The Package Manager's scripting API as Unity 2021.3 has it, for the members the package tools use.
// Requests are completed by tests (internal hooks), as Unity completes them on later editor ticks.
namespace UnityEditor.PackageManager
{
    // https://docs.unity3d.com/ScriptReference/PackageManager.Client.html
    public static class Client
    {
        // https://docs.unity3d.com/ScriptReference/PackageManager.Client.List.html
        public static ListRequest List(bool offlineMode, bool includeIndirectDependencies) => Record(new ListRequest(), "list " + offlineMode + " " + includeIndirectDependencies);

        // https://docs.unity3d.com/ScriptReference/PackageManager.Client.Add.html
        public static AddRequest Add(string identifier) => Record(new AddRequest(), "add " + identifier);

        // https://docs.unity3d.com/ScriptReference/PackageManager.Client.Remove.html
        public static RemoveRequest Remove(string packageName) => Record(new RemoveRequest(packageName), "remove " + packageName);

        /// <summary>Test hooks (not Unity API): every request made, and the last one.</summary>
        internal static readonly List<string> Calls = new List<string>();
        internal static Request Last;

        private static T Record<T>(T request, string call) where T : Request
        {
            Calls.Add(call);
            Last = request;
            return request;
        }

        internal static void Reset()
        {
            Calls.Clear();
            Last = null;
        }
    }

    // https://docs.unity3d.com/ScriptReference/PackageManager.StatusCode.html
    public enum StatusCode
    {
        InProgress = 0,
        Success = 1,
        Failure = 2,
    }

    // https://docs.unity3d.com/ScriptReference/PackageManager.ErrorCode.html (2021.3's members)
    public enum ErrorCode
    {
        Unknown = 0,
        NotFound = 1,
        Forbidden = 2,
        InvalidParameter = 3,
        Conflict = 4,
    }

    // https://docs.unity3d.com/ScriptReference/PackageManager.Error.html
    public sealed class Error
    {
        internal Error(string message, ErrorCode errorCode)
        {
            this.message = message;
            this.errorCode = errorCode;
        }

        // https://docs.unity3d.com/ScriptReference/PackageManager.Error-message.html
        public string message { get; }

        // https://docs.unity3d.com/ScriptReference/PackageManager.Error-errorCode.html
        public ErrorCode errorCode { get; }
    }

    // https://docs.unity3d.com/ScriptReference/PackageManager.PackageSource.html
    public enum PackageSource
    {
        Unknown,
        Registry,
        BuiltIn,
        Embedded,
        Local,
        Git,
        LocalTarball,
    }

    // https://docs.unity3d.com/ScriptReference/PackageManager.PackageInfo.html
    public sealed class PackageInfo
    {
        internal PackageInfo(string name, string version, string displayName, PackageSource source, string packageId, bool isDirectDependency)
        {
            this.name = name;
            this.version = version;
            this.displayName = displayName;
            this.source = source;
            this.packageId = packageId;
            this.isDirectDependency = isDirectDependency;
        }

        public string name { get; }
        public string version { get; }
        public string displayName { get; }
        public PackageSource source { get; }
        public string packageId { get; }
        public bool isDirectDependency { get; }
    }

    // https://docs.unity3d.com/ScriptReference/PackageManager.PackageCollection.html
    public sealed class PackageCollection : IEnumerable<PackageInfo>
    {
        private readonly List<PackageInfo> _packages;

        internal PackageCollection(IEnumerable<PackageInfo> packages) => _packages = new List<PackageInfo>(packages);

        public IEnumerator<PackageInfo> GetEnumerator() => _packages.GetEnumerator();

        IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
    }
}

namespace UnityEditor.PackageManager.Requests
{
    // https://docs.unity3d.com/ScriptReference/PackageManager.Requests.Request.html
    public abstract class Request
    {
        // https://docs.unity3d.com/ScriptReference/PackageManager.Requests.Request-IsCompleted.html
        public bool IsCompleted => Status != StatusCode.InProgress;

        // https://docs.unity3d.com/ScriptReference/PackageManager.Requests.Request-Status.html
        public StatusCode Status { get; private set; }

        // https://docs.unity3d.com/ScriptReference/PackageManager.Requests.Request-Error.html
        public Error Error { get; private set; }

        /// <summary>Test hook (not Unity API): the Package Manager failed the request.</summary>
        internal void Fail(string message, ErrorCode errorCode = ErrorCode.Unknown)
        {
            Error = new Error(message, errorCode);
            Status = StatusCode.Failure;
        }

        internal void Succeed() => Status = StatusCode.Success;
    }

    // https://docs.unity3d.com/ScriptReference/PackageManager.Requests.Request_1.html
    public abstract class Request<T> : Request
    {
        // https://docs.unity3d.com/ScriptReference/PackageManager.Requests.Request_1-Result.html
        public T Result { get; private set; }

        /// <summary>Test hook (not Unity API): the request succeeded with <paramref name="result"/>.</summary>
        internal void Succeed(T result)
        {
            Result = result;
            Succeed();
        }
    }

    // https://docs.unity3d.com/ScriptReference/PackageManager.Requests.ListRequest.html
    public sealed class ListRequest : Request<PackageCollection>
    {
        internal ListRequest() { }
    }

    // https://docs.unity3d.com/ScriptReference/PackageManager.Requests.AddRequest.html
    public sealed class AddRequest : Request<PackageInfo>
    {
        internal AddRequest() { }
    }

    // https://docs.unity3d.com/ScriptReference/PackageManager.Requests.RemoveRequest.html
    public sealed class RemoveRequest : Request
    {
        internal RemoveRequest(string packageIdOrName) => PackageIdOrName = packageIdOrName;

        // https://docs.unity3d.com/ScriptReference/PackageManager.Requests.RemoveRequest-PackageIdOrName.html
        public string PackageIdOrName { get; }
    }
}
