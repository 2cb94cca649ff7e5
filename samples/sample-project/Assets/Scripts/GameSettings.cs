using UnityEngine;

namespace Sample
{
    /// <summary>Game-wide settings, kept in an asset (create one with create_scriptable_object).</summary>
    [CreateAssetMenu(fileName = "GameSettings", menuName = "Sample/Game Settings")]
    public class GameSettings : ScriptableObject
    {
        public string title = "Sample Game";
        public int maxPlayers = 4;
        [Range(0f, 1f)] public float musicVolume = 0.8f;
        public bool showTutorial = true;
        public Color skyColor = new Color(0.5f, 0.7f, 1f, 1f);
        public Difficulty difficulty = Difficulty.Normal;
        public Material groundMaterial;
        public string[] levels = { "Level1", "Level2" };
        [SerializeField] private float gravity = -9.81f;

        // Not serialized: Unity keeps neither statics nor [NonSerialized] fields in the asset.
        [System.NonSerialized] public int sessionCount;
        public static int instances;

        public float Gravity => gravity;
    }

    public enum Difficulty { Easy, Normal, Hard }
}
