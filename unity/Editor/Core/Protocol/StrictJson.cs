namespace Tether.Core.Protocol
{
    /// <summary>
    /// Checks that text is exactly one JSON value by RFC 8259, as JavaScript's JSON.parse reads
    /// it, and that it nests no deeper than a bound, before Newtonsoft parses it. Newtonsoft is
    /// lenient (comments, single quotes, NaN, trailing commas) and code walking a parsed token
    /// recurses: checking first keeps the host's reading what the reference's is and keeps a
    /// body of ten thousand '[' from reaching anything recursive. Iterative, one pass, no allocation
    /// beyond the container stack.
    /// </summary>
    internal static class StrictJson
    {
        public enum Verdict
        {
            Ok,
            Invalid,
            TooDeep,
        }

        private const int Value = 0;
        private const int ValueOrEndArray = 1;
        private const int KeyOrEndObject = 2;
        private const int Key = 3;
        private const int Colon = 4;
        private const int After = 5;

        public static Verdict Check(string text, int maxDepth)
        {
            var open = new char[maxDepth];
            int depth = 0;
            int state = Value;
            int i = 0;
            int n = text.Length;
            for (;;)
            {
                while (i < n && IsSpace(text[i])) i++;
                if (i >= n) return state == After && depth == 0 ? Verdict.Ok : Verdict.Invalid;
                char c = text[i];
                switch (state)
                {
                    case ValueOrEndArray:
                        if (c == ']')
                        {
                            i++;
                            depth--;
                            state = After;
                            break;
                        }
                        goto case Value;
                    case Value:
                        if (c == '{' || c == '[')
                        {
                            if (depth == maxDepth) return Verdict.TooDeep;
                            open[depth++] = c;
                            i++;
                            state = c == '{' ? KeyOrEndObject : ValueOrEndArray;
                        }
                        else if (c == '"')
                        {
                            if (!SkipString(text, ref i)) return Verdict.Invalid;
                            state = After;
                        }
                        else if (c == '-' || (c >= '0' && c <= '9'))
                        {
                            if (!SkipNumber(text, ref i)) return Verdict.Invalid;
                            state = After;
                        }
                        else if (SkipWord(text, ref i, "true") || SkipWord(text, ref i, "false") || SkipWord(text, ref i, "null"))
                        {
                            state = After;
                        }
                        else
                        {
                            return Verdict.Invalid;
                        }
                        break;
                    case KeyOrEndObject:
                        if (c == '}')
                        {
                            i++;
                            depth--;
                            state = After;
                            break;
                        }
                        goto case Key;
                    case Key:
                        if (c != '"' || !SkipString(text, ref i)) return Verdict.Invalid;
                        state = Colon;
                        break;
                    case Colon:
                        if (c != ':') return Verdict.Invalid;
                        i++;
                        state = Value;
                        break;
                    default: // After a value
                        if (depth == 0) return Verdict.Invalid;
                        char container = open[depth - 1];
                        if (c == ',')
                        {
                            i++;
                            state = container == '{' ? Key : Value;
                        }
                        else if (c == (container == '{' ? '}' : ']'))
                        {
                            i++;
                            depth--;
                        }
                        else
                        {
                            return Verdict.Invalid;
                        }
                        break;
                }
            }
        }

        private static bool IsSpace(char c) => c == ' ' || c == '\t' || c == '\n' || c == '\r';

        private static bool SkipString(string text, ref int i)
        {
            int n = text.Length;
            i++; // the opening quote
            while (i < n)
            {
                char c = text[i];
                if (c == '"')
                {
                    i++;
                    return true;
                }
                if (c < 0x20) return false;
                if (c == '\\')
                {
                    if (i + 1 >= n) return false;
                    char e = text[i + 1];
                    if (e == 'u')
                    {
                        if (i + 5 >= n) return false;
                        for (int k = 2; k < 6; k++) if (!IsHex(text[i + k])) return false;
                        i += 6;
                        continue;
                    }
                    if (e != '"' && e != '\\' && e != '/' && e != 'b' && e != 'f' && e != 'n' && e != 'r' && e != 't') return false;
                    i += 2;
                    continue;
                }
                i++;
            }
            return false;
        }

        private static bool IsHex(char c) => (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');

        private static bool IsDigit(string text, int i) => i < text.Length && text[i] >= '0' && text[i] <= '9';

        /// <summary>-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?</summary>
        private static bool SkipNumber(string text, ref int i)
        {
            if (text[i] == '-') i++;
            if (!IsDigit(text, i)) return false;
            if (text[i] == '0') i++;
            else while (IsDigit(text, i)) i++;
            if (i < text.Length && text[i] == '.')
            {
                i++;
                if (!IsDigit(text, i)) return false;
                while (IsDigit(text, i)) i++;
            }
            if (i < text.Length && (text[i] == 'e' || text[i] == 'E'))
            {
                i++;
                if (i < text.Length && (text[i] == '+' || text[i] == '-')) i++;
                if (!IsDigit(text, i)) return false;
                while (IsDigit(text, i)) i++;
            }
            return true;
        }

        private static bool SkipWord(string text, ref int i, string word)
        {
            if (string.CompareOrdinal(text, i, word, 0, word.Length) != 0) return false;
            i += word.Length;
            return true;
        }
    }
}
