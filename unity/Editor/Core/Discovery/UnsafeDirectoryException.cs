using System.IO;

namespace Tether.Core.Discovery
{
    /// <summary>
    /// A private directory Tether will not use (the TypeScript UnsafeDirectoryError, code
    /// UNSAFE_DIRECTORY): a symbolic link, a directory another user owns, or one shared by
    /// design (sticky, like /tmp). Whoever controls such a directory could plant or read the
    /// secrets put in it. The message says what is wrong and what to do.
    /// </summary>
    public sealed class UnsafeDirectoryException : IOException
    {
        public const string ErrorCode = "UNSAFE_DIRECTORY";

        public const string DefaultRemedy =
            "Remove it (Tether recreates it, 0700), or set TETHER_HOME to a directory of your own (for example one made by `mktemp -d`).";

        public UnsafeDirectoryException(string path, string problem, string remedy = DefaultRemedy)
            : base($"Refusing to use {path}: {problem}. Tether keeps tokens and other private state there, so it must be a real directory that only you own and use. {remedy}")
        {
            DirectoryPath = path;
            Problem = problem;
            Data["code"] = ErrorCode;
            Data["path"] = path;
        }

        /// <summary>Always UNSAFE_DIRECTORY (also in Data["code"]).</summary>
        public string Code => ErrorCode;

        /// <summary>The directory refused.</summary>
        public string DirectoryPath { get; }

        /// <summary>What is wrong with it, in words.</summary>
        public string Problem { get; }
    }
}
