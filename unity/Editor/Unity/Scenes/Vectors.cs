using System;
using Newtonsoft.Json.Linq;

namespace Tether.Unity.Scenes
{
    /// <summary>[x, y, z] arrays, as the scene tools take and return vectors.</summary>
    internal static class Vectors
    {
        /// <summary>A float as JSON, rounded to what a float holds (0.1f is 0.1, not 0.100000001490116).</summary>
        public static JArray ToJson(float x, float y, float z) => new JArray(Round(x), Round(y), Round(z));

        private static double Round(float value)
        {
            if (float.IsNaN(value) || float.IsInfinity(value)) return 0;
            return double.Parse(value.ToString("R", System.Globalization.CultureInfo.InvariantCulture), System.Globalization.CultureInfo.InvariantCulture);
        }

        /// <summary>The three components of an argument vector (the schema guarantees three numbers).</summary>
        public static (float X, float Y, float Z) FromArgs(double[] vector)
        {
            if (vector == null || vector.Length != 3) throw new ArgumentException("a vector has three numbers: [x, y, z]");
            return ((float)vector[0], (float)vector[1], (float)vector[2]);
        }
    }
}
