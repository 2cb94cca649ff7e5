using NUnit.Framework;
using Tether.Unity.Serialization;

namespace Tether.Unity.Tests.Serialization
{
    [TestFixture]
    public class SubAssetsTests
    {
        // What AssetDatabase.LoadAllAssetsAtPath gives for an FBX: the model's GameObjects and their components, its meshes, materials, clips and avatar.
        private static readonly AssetObject[] Model =
        {
            new AssetObject("Hero", "GameObject", false, true, false),
            new AssetObject("Hero", "Transform", false, false, true),
            new AssetObject("Body", "GameObject", false, false, false),
            new AssetObject("Body", "SkinnedMeshRenderer", false, false, true),
            new AssetObject("Body", "Mesh", true, false, false),
            new AssetObject("Sword", "Mesh", true, false, false),
            new AssetObject("Run", "AnimationClip", false, false, false),
            new AssetObject("HeroAvatar", "Avatar", false, false, false),
        };

        private static ValueProblem Problem(string why) => new ValueProblem("m_Mesh takes a Mesh, and " + why, "hint");

        private static AssetObject Fitting(string name, string type, bool isMain = false) => new AssetObject(name, type, true, isMain, false);

        [Test]
        public void ANamePicksTheObjectOfThatNameThatFitsTheField()
        {
            Assert.That(SubAssets.Named(Model, "Assets/Hero.fbx", "Body", "Mesh", Problem), Is.EqualTo(4), "the Mesh, not the GameObject or the renderer of that name");
            Assert.That(SubAssets.Named(Model, "Assets/Hero.fbx", "Sword", "Mesh", Problem), Is.EqualTo(5));
            var sheet = new[] { new AssetObject("Sheet", "Texture2D", false, true, false), Fitting("Sheet_0", "Sprite"), Fitting("Sheet_1", "Sprite") };
            Assert.That(SubAssets.Named(sheet, "Assets/Sheet.png", "Sheet_1", "Sprite", Problem), Is.EqualTo(2));
            var data = new[] { Fitting("Goblin", "EnemyData", isMain: true), Fitting("Loot", "EnemyData") };
            Assert.That(SubAssets.Named(data, "Assets/Goblin.asset", "Goblin", "EnemyData", Problem), Is.EqualTo(0), "the main asset by its name too");
        }

        [Test]
        public void ANameThatPicksNothingListsTheObjectsThatFit()
        {
            var missing = Assert.Throws<ValueProblem>(() => SubAssets.Named(Model, "Assets/Hero.fbx", "Bodyy", "Mesh", Problem));
            Assert.That(missing.Problem, Is.EqualTo("m_Mesh takes a Mesh, and \"Assets/Hero.fbx\" holds no \"Bodyy\" (its Mesh objects: \"Body\", \"Sword\"); did you mean \"Body\"?"));
            var wrongType = Assert.Throws<ValueProblem>(() => SubAssets.Named(Model, "Assets/Hero.fbx", "Run", "Mesh", Problem));
            Assert.That(wrongType.Problem, Is.EqualTo("m_Mesh takes a Mesh, and \"Run\" in \"Assets/Hero.fbx\" is an AnimationClip (its Mesh objects: \"Body\", \"Sword\")"));
            var none = Assert.Throws<ValueProblem>(() => SubAssets.Named(new[] { new AssetObject("Red", "Material", false, true, false) }, "Assets/Red.mat", "Cube", "Mesh", Problem));
            Assert.That(none.Problem, Is.EqualTo("m_Mesh takes a Mesh, and \"Assets/Red.mat\" holds no \"Cube\" (it holds no Mesh)"));
        }

        [Test]
        public void ANameThatPicksSeveralSaysItCannotTellThemApart()
        {
            var twins = new[] { new AssetObject("Hero", "GameObject", false, true, false), Fitting("Body", "Mesh"), Fitting("Body", "Mesh") };
            var problem = Assert.Throws<ValueProblem>(() => SubAssets.Named(twins, "Assets/Hero.fbx", "Body", "Mesh", Problem));
            Assert.That(problem.Problem, Is.EqualTo("m_Mesh takes a Mesh, and \"Assets/Hero.fbx\" holds 2 Mesh objects named \"Body\", which \"name\" cannot tell apart (its Mesh objects: \"Body\", \"Body\")"));
        }

        [Test]
        public void AnAssetAloneTakesItsOneSubAssetThatFits()
        {
            var single = new[] { new AssetObject("Hero", "Texture2D", false, true, false), Fitting("Hero", "Sprite") };
            Assert.That(SubAssets.OnlyFitting(single, "Assets/Hero.png", "Texture2D", "Sprite", Problem), Is.EqualTo(1), "a texture imported as one sprite");
            var clip = new[] { new AssetObject("Jump", "GameObject", false, true, false), new AssetObject("Jump", "Animator", true, false, true), Fitting("Jump", "AnimationClip") };
            Assert.That(SubAssets.OnlyFitting(clip, "Assets/Jump.fbx", "GameObject", "AnimationClip", Problem), Is.EqualTo(2), "a model's one clip; components are not sub-assets");
            var nothing = new[] { new AssetObject("Red", "Material", false, true, false) };
            Assert.That(SubAssets.OnlyFitting(nothing, "Assets/Red.mat", "Material", "Mesh", Problem), Is.EqualTo(-1));
        }

        [Test]
        public void AnAssetAloneWithSeveralThatFitAsksForAName()
        {
            var problem = Assert.Throws<ValueProblem>(() => SubAssets.OnlyFitting(Model, "Assets/Hero.fbx", "GameObject", "Mesh", Problem));
            Assert.That(problem.Problem, Is.EqualTo("m_Mesh takes a Mesh, and \"Assets/Hero.fbx\" is a GameObject holding 2 Mesh objects (\"Body\", \"Sword\"): give one as \"name\""));
        }

        [Test]
        public void ALongListIsCut()
        {
            var objects = new AssetObject[26];
            objects[0] = new AssetObject("Sheet", "Texture2D", false, true, false);
            for (var i = 1; i < objects.Length; i++) objects[i] = Fitting("S" + (char)('A' + i - 1), "Sprite");
            var problem = Assert.Throws<ValueProblem>(() => SubAssets.OnlyFitting(objects, "Assets/Sheet.png", "Texture2D", "Sprite", Problem));
            Assert.That(problem.Problem, Does.EndWith("\"ST\" and 5 more): give one as \"name\""));
        }
    }
}
