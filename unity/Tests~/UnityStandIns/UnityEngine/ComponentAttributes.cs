using System;

namespace UnityEngine
{
    // https://docs.unity3d.com/ScriptReference/DisallowMultipleComponent.html
    [AttributeUsage(AttributeTargets.Class, Inherited = false)]
    public sealed class DisallowMultipleComponent : Attribute
    {
    }

    // https://docs.unity3d.com/ScriptReference/RequireComponent.html
    // Tether reads the types from the attribute's constructor arguments (CustomAttributeData),
    // never from an instance: the constructors store nothing here.
    [AttributeUsage(AttributeTargets.Class, AllowMultiple = true)]
    public sealed class RequireComponent : Attribute
    {
        // https://docs.unity3d.com/ScriptReference/RequireComponent-ctor.html
        public RequireComponent(Type requiredComponent)
        {
        }

        public RequireComponent(Type requiredComponent, Type requiredComponent2)
        {
        }

        public RequireComponent(Type requiredComponent, Type requiredComponent2, Type requiredComponent3)
        {
        }
    }
}
