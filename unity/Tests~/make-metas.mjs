#!/usr/bin/env node
// Writes the .meta file Unity needs beside every file and folder of the package (unity/),
// for those that lack one. An immutable package (installed from git or a tarball) cannot get
// metas from Unity, and a GUID that changes breaks every reference to the asset, so:
//   - each GUID is derived from the asset's package-relative path, md5("com.tether.host/" + path),
//     the same on every machine and every run;
//   - an existing .meta is never changed (its GUID may already be referenced).
// Skipped, as Unity skips them: Tests~ and every other name ending in "~", hidden names (".x").
// Also reports .meta files whose asset is gone (it does not delete them).
// Usage: node unity/Tests~/make-metas.mjs [--check]   (--check: change nothing, exit 1 if a meta is missing)
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'com.tether.host';
const packageRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const check = process.argv.includes('--check');

const ignored = (name) => name.startsWith('.') || name.endsWith('~');

/** The body Unity writes under the GUID for each kind of asset (Unity 2021.3's defaults). */
function importer(name, isFolder) {
  const tail = '  externalObjects: {}\n  userData: \n  assetBundleName: \n  assetBundleVariant: \n';
  if (isFolder) return `folderAsset: yes\nDefaultImporter:\n${tail}`;
  if (name === 'package.json') return `PackageManifestImporter:\n${tail}`;
  if (name.endsWith('.cs')) {
    return 'MonoImporter:\n  externalObjects: {}\n  serializedVersion: 2\n  defaultReferences: []\n  executionOrder: 0\n  icon: {instanceID: 0}\n  userData: \n  assetBundleName: \n  assetBundleVariant: \n';
  }
  if (name.endsWith('.asmdef')) return `AssemblyDefinitionImporter:\n${tail}`;
  if (name.endsWith('.asmref')) return `AssemblyDefinitionReferenceImporter:\n${tail}`;
  if (/\.(json|md|txt|xml|yaml|yml|bytes|csv|html)$/i.test(name)) return `TextScriptImporter:\n${tail}`;
  return `DefaultImporter:\n${tail}`;
}

/** The asset's GUID: 32 lowercase hex digits from its path inside the package. */
export function guidFor(packageRelativePath) {
  return createHash('md5').update(`${PACKAGE_NAME}/${packageRelativePath}`).digest('hex');
}

function walk(dir, found) {
  for (const name of readdirSync(dir).sort()) {
    if (ignored(name) || name.endsWith('.meta')) continue;
    const path = join(dir, name);
    const isFolder = statSync(path).isDirectory();
    found.push({ path, name, isFolder });
    if (isFolder) walk(path, found);
  }
  return found;
}

function orphans(dir, found) {
  for (const name of readdirSync(dir).sort()) {
    if (ignored(name)) continue;
    const path = join(dir, name);
    if (name.endsWith('.meta')) {
      if (!existsSync(path.slice(0, -'.meta'.length))) found.push(path);
    } else if (statSync(path).isDirectory()) {
      orphans(path, found);
    }
  }
  return found;
}

const missing = [];
for (const asset of walk(packageRoot, [])) {
  const meta = `${asset.path}.meta`;
  if (existsSync(meta)) continue;
  const rel = relative(packageRoot, asset.path).split(sep).join('/');
  missing.push(rel);
  if (!check) writeFileSync(meta, `fileFormatVersion: 2\nguid: ${guidFor(rel)}\n${importer(asset.name, asset.isFolder)}`);
}
for (const rel of missing) console.log(`${check ? 'missing' : 'created'} ${rel}.meta`);
for (const path of orphans(packageRoot, [])) console.log(`orphan ${relative(packageRoot, path).split(sep).join('/')} (its asset is gone; delete it)`);
console.log(`${missing.length} meta file(s) ${check ? 'missing' : 'created'}.`);
if (check && missing.length > 0) process.exit(1);
