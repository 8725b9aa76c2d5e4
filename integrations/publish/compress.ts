import { readFile, writeFile } from "node:fs/promises";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const TEXT = /\.(html|js|css|svg|xml|txt|json|webmanifest)$/;

/**
 * Precompressed copies for our server and nginx (brotli at quality 11, gzip -9), each kept only when
 * smaller. Static hosts compress on their own and never get these copies (publish.ts). Returns how
 * many files were compressed.
 */
export async function precompress(files: string[]): Promise<number> {
  let compressed = 0;
  for (const file of files.filter((f) => TEXT.test(f))) {
    const body = await readFile(file);
    if (body.length < 256) continue;
    const br = brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
    const gz = gzipSync(body, { level: 9 });
    if (br.length < body.length) await writeFile(`${file}.br`, br);
    if (gz.length < body.length) await writeFile(`${file}.gz`, gz);
    compressed++;
  }
  return compressed;
}
