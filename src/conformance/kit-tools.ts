/**
 * The conformance kit's tool names (docs/protocol.md, "Optional conformance kit"). A leaf of its
 * own: the check shapes (types.ts) name them, and the kit's drivers (kit.ts) take a check's context.
 */
export const KIT = {
  block: 'tether_conformance_block',
  count: 'tether_conformance_count',
  read: 'tether_conformance_read',
  reload: 'tether_conformance_reload',
  wait: 'tether_conformance_wait',
  attach: 'tether_conformance_attach',
  reject: 'tether_conformance_reject',
} as const;

export type KitTool = (typeof KIT)[keyof typeof KIT];
