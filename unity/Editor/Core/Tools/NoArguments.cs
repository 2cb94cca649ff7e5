namespace Tether.Core.Tools
{
    /// <summary>The arguments of a tool that takes none: its schema is an empty object that refuses every key.</summary>
    public sealed class NoArguments
    {
    }
}
