using System.Runtime.CompilerServices;

// The NUnit tests under Tests~ reach the Unity assembly's internals (its Unity-free logic).
[assembly: InternalsVisibleTo("Tether.Unity.Tests")]
