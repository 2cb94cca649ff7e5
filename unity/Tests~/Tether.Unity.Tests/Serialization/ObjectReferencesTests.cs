using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Unity.Serialization;

namespace Tether.Unity.Tests.Serialization
{
    [TestFixture]
    public class ObjectReferencesTests
    {
        private class Animal
        {
        }

        private class Dog : Animal
        {
        }

        private static ValueProblem Refused(string json, bool sceneAllowed = true) =>
            Assert.Throws<ValueProblem>(() => ObjectReferences.Parse(JToken.Parse(json), "Material", "skin", sceneAllowed));

        [Test]
        public void ReadsEachShapeOfReference()
        {
            Assert.That(ObjectReferences.Parse(JValue.CreateNull(), "Material", "skin", true), Is.Null);
            var asset = ObjectReferences.Parse(JToken.Parse("{\"asset\": \"Assets\\\\Red.mat\"}"), "Material", "skin", false);
            Assert.That((asset.Asset, asset.Name, asset.GameObject, asset.Component), Is.EqualTo(("Assets/Red.mat", (string)null, (string)null, (string)null)));
            var builtin = ObjectReferences.Parse(JToken.Parse("{\"asset\": \"Library/unity default resources\", \"name\": \"Cube\"}"), "Mesh", "m_Mesh", false);
            Assert.That(builtin.Name, Is.EqualTo("Cube"));
            var component = ObjectReferences.Parse(JToken.Parse("{\"gameObject\": \"/Player\", \"component\": \"Rigidbody\"}"), "Rigidbody", "body", true);
            Assert.That((component.GameObject, component.Component), Is.EqualTo(("/Player", "Rigidbody")));
            Assert.That(ObjectReferences.Parse(JToken.Parse("{\"asset\": \"Assets/Enemy.prefab\", \"component\": \"Enemy\"}"), "Enemy", "e", false).Component, Is.EqualTo("Enemy"));
        }

        [Test]
        public void RefusesWhatIsNoReferenceSayingWhatToGive()
        {
            var problem = Refused("\"Assets/Red.mat\"");
            Assert.That(problem.Problem, Is.EqualTo("skin takes a Material, and \"Assets/Red.mat\" is no reference"));
            Assert.That(problem.Hint, Is.EqualTo("Give {\"asset\": \"Assets/…\"}, {\"gameObject\": \"/Path\"}, {\"gameObject\": \"/Path\", \"component\": \"Type\"} or null."));
            Assert.That(Refused("\"x\"", sceneAllowed: false).Hint, Is.EqualTo("Give {\"asset\": \"Assets/…\"} or null."));
            Assert.That(Refused("{\"path\": \"Assets/Red.mat\"}").Problem, Does.EndWith("a reference has no key \"path\""));
            Assert.That(Refused("{\"gameObject\": \"/Player\", \"component\": 3}").Problem, Does.EndWith("\"component\" must be a type name"));
            Assert.That(Refused("{\"gameObject\": \"/Player\"}", sceneAllowed: false).Problem, Does.Contain("an asset cannot reference a scene object"));
            Assert.That(Refused("{}").Problem, Does.EndWith("a reference names an \"asset\" or a \"gameObject\""));
            Assert.That(Refused("{\"asset\": \"Assets/Hero.fbx\", \"name\": 3}").Problem, Does.EndWith("\"name\" must be the name of an object in the asset (a sub-asset)"));
            Assert.That(Refused("{\"asset\": \"Library/unity default resources\", \"name\": 3}").Problem, Does.EndWith("\"name\" must be a built-in resource's name"));
            Assert.That(Refused("{\"asset\": \"Assets/Enemy.prefab\", \"name\": \"Gun\", \"component\": \"Enemy\"}").Problem, Does.Contain("give one of them"));
            Assert.That(Refused("{\"asset\": \"Resources/unity_builtin_extra\"}").Problem, Does.Contain("give one as \"name\""));
        }

        [Test]
        public void ReadsASubAssetByNameInAnyAsset()
        {
            var mesh = ObjectReferences.Parse(JToken.Parse("{\"asset\": \"Assets/Models/Hero.fbx\", \"name\": \"Body\"}"), "Mesh", "m_Mesh", true);
            Assert.That((mesh.Asset, mesh.Name, mesh.Component), Is.EqualTo(("Assets/Models/Hero.fbx", "Body", (string)null)));
            var sprite = ObjectReferences.Parse(JToken.Parse("{\"asset\": \"Assets\\\\Sheet.png\", \"name\": \"Sheet_2\"}"), "Sprite", "m_Sprite", false);
            Assert.That((sprite.Asset, sprite.Name), Is.EqualTo(("Assets/Sheet.png", "Sheet_2")));
        }

        [Test]
        public void TheShapeReadForAnAssetIsTheShapeWritten()
        {
            Assert.That(ObjectReferences.AssetJson("Assets/Red.mat", null, null).ToString(Newtonsoft.Json.Formatting.None), Is.EqualTo("{\"asset\":\"Assets/Red.mat\"}"));
            Assert.That(ObjectReferences.AssetJson("Assets/Hero.fbx", "Body", null).ToString(Newtonsoft.Json.Formatting.None), Is.EqualTo("{\"asset\":\"Assets/Hero.fbx\",\"name\":\"Body\"}"));
            Assert.That(ObjectReferences.AssetJson("Assets/Enemy.prefab", null, "Enemy").ToString(Newtonsoft.Json.Formatting.None), Is.EqualTo("{\"asset\":\"Assets/Enemy.prefab\",\"component\":\"Enemy\"}"));

            // A model's Mesh as get_serialized_properties reads it, written back with set_serialized_properties.
            var read = ObjectReferences.AssetJson("Assets/Hero.fbx", "Body", null);
            var request = ObjectReferences.Parse(read, "Mesh", "m_Mesh", true);
            Assert.That((request.Asset, request.Name, request.Component), Is.EqualTo(("Assets/Hero.fbx", "Body", (string)null)));
            var objects = new[]
            {
                new AssetObject("Hero", "GameObject", false, true, false),
                new AssetObject("Body", "GameObject", false, false, false),
                new AssetObject("Body", "MeshFilter", false, false, true),
                new AssetObject("Body", "Mesh", true, false, false),
            };
            Assert.That(SubAssets.Named(objects, request.Asset, request.Name, "Mesh", why => new ValueProblem(why, "")), Is.EqualTo(3));

            foreach (var json in new[] { ObjectReferences.AssetJson("Assets/Red.mat", null, null), ObjectReferences.AssetJson("Assets/Enemy.prefab", null, "Enemy") })
            {
                var back = ObjectReferences.Parse(json, "Object", "field", false);
                Assert.That(ObjectReferences.AssetJson(back.Asset, back.Name, back.Component).ToString(), Is.EqualTo(json.ToString()));
            }
        }

        [TestCase("PPtr<$Material>", "Material")]
        [TestCase("PPtr<Transform>", "Transform")]
        [TestCase("PPtr<$>", "Object")]
        [TestCase("int", "Object")]
        [TestCase(null, "Object")]
        public void ReadsTheClassAReferenceTakesFromItsSerializedType(string serializedType, string expected)
        {
            Assert.That(ObjectReferences.ExpectedType(serializedType), Is.EqualTo(expected));
        }

        [Test]
        public void AnObjectFitsAFieldOfItsClassOrABase()
        {
            Assert.That(ObjectReferences.IsAssignable(typeof(Dog), "Dog"), Is.True);
            Assert.That(ObjectReferences.IsAssignable(typeof(Dog), "Animal"), Is.True);
            Assert.That(ObjectReferences.IsAssignable(typeof(Animal), "Dog"), Is.False);
            Assert.That(ObjectReferences.IsAssignable(typeof(Animal), "Object"), Is.True);
            Assert.That(ObjectReferences.Names(typeof(Dog), "Dog"), Is.True);
            Assert.That(ObjectReferences.Names(typeof(Dog), typeof(Dog).FullName), Is.True);
            Assert.That(ObjectReferences.Names(typeof(Dog), "MyGame.Dog"), Is.True, "a namespace the agent guessed names the same class");
            Assert.That(ObjectReferences.Names(typeof(Dog), "Animal"), Is.False);
        }
    }
}
