using System.Runtime.CompilerServices;

// The NUnit tests under Tests~ reach Core's internals, as Unity's test assemblies would.
[assembly: InternalsVisibleTo("Tether.Core.Tests")]
[assembly: InternalsVisibleTo("Tether.Unity")]
