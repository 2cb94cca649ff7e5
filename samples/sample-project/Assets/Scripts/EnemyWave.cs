using System;
using System.Collections.Generic;
using UnityEngine;

namespace Sample
{
    /// <summary>One wave of enemies: what spawns, how many, and the pause before the next wave.</summary>
    [CreateAssetMenu(fileName = "Wave", menuName = "Sample/Enemy Wave")]
    public class EnemyWave : ScriptableObject
    {
        public List<Spawn> spawns = new List<Spawn>();
        public float delay = 2.5f;
    }

    [Serializable]
    public class Spawn
    {
        public GameObject prefab;
        public int count = 3;
        public Vector3 offset;
    }
}
