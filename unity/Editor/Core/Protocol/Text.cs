namespace Tether.Core.Protocol
{
    /// <summary>Text helpers for messages.</summary>
    public static class Text
    {
        /// <summary>
        /// A name or value the peer sent, as an error echoes it: whole when short, else its start and
        /// its length, so that a megabyte-long name does not come back as two megabytes of error.
        /// </summary>
        public static string Clipped(string text, int max = 200)
        {
            if (text == null) return "";
            return text.Length <= max ? text : $"{text.Substring(0, max)}… ({text.Length} characters)";
        }
    }
}
