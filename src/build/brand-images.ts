/**
 * Build-time raster images from the brand: the favicon set and one Open Graph card (1200x630) per page.
 * Text is set by sharp (Pango) with Inter from an npm package, so the result never depends on the
 * fonts installed on the build machine.
 */
import { createRequire } from "node:module";
import sharp from "sharp";
import { BRAND_COLORS, brandMarkSvg } from "../shared/brand.ts";

export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;

const {
  ink950: INK_950,
  ink900: INK_900,
  lineDark: LINE_DARK,
  accent: ACCENT,
  textOnDark: TEXT_ON_DARK,
  mutedOnDark: MUTED_ON_DARK,
} = BRAND_COLORS;

const require = createRequire(import.meta.url);
const fontFile = (weight: "400Regular" | "600SemiBold") => require.resolve(`@expo-google-fonts/inter/${weight}/Inter_${weight}.ttf`);

export function renderIcon(size: number, options: { fullBleed?: boolean } = {}): Promise<Buffer> {
  return sharp(Buffer.from(brandMarkSvg({ size, ...options })))
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** An .ico file holding PNG images (supported by every browser since Windows Vista-era icon handling). */
export function icoFromPngs(images: Array<{ size: number; png: Buffer }>): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0);
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((image) => image.png)]);
}

const escapeMarkup = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

async function textLayer(text: string, options: { weight: "400Regular" | "600SemiBold"; size: number; color: string; width: number }) {
  const family = options.weight === "600SemiBold" ? "Inter SemiBold" : "Inter";
  const { data, info } = await sharp({
    text: {
      text: `<span foreground="${options.color}">${escapeMarkup(text)}</span>`,
      font: `${family} ${options.size}`,
      fontfile: fontFile(options.weight),
      width: options.width,
      spacing: Math.round(options.size * 0.25),
      rgba: true,
      dpi: 72,
    },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { input: data, width: info.width, height: info.height };
}

/** The Open Graph card of one page: brand mark and name, the page title, a footer line. */
export async function renderOgImage({ brandName, title, footer }: { brandName: string; title: string; footer: string }): Promise<Buffer> {
  const background =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${OG_WIDTH}" height="${OG_HEIGHT}">` +
    `<defs><pattern id="g" width="48" height="48" patternUnits="userSpaceOnUse"><path d="M48 0H0v48" fill="none" stroke="${LINE_DARK}" stroke-opacity=".6"/></pattern></defs>` +
    `<rect width="100%" height="100%" fill="${INK_950}"/><rect width="100%" height="100%" fill="url(#g)"/>` +
    `<rect x="80" y="184" width="96" height="6" rx="3" fill="${ACCENT}"/>` +
    `<rect x="0" y="${OG_HEIGHT - 72}" width="${OG_WIDTH}" height="72" fill="${INK_900}"/></svg>`;
  const mark = await sharp(Buffer.from(brandMarkSvg({ size: 72 })))
    .png()
    .toBuffer();
  const brand = await textLayer(brandName, { weight: "600SemiBold", size: 40, color: TEXT_ON_DARK, width: 900 });
  // A title that would run into the footer band is set smaller.
  let heading = await textLayer(title, { weight: "600SemiBold", size: 76, color: TEXT_ON_DARK, width: 1040 });
  for (const size of [64, 52, 44]) {
    if (heading.height <= 330) break;
    heading = await textLayer(title, { weight: "600SemiBold", size, color: TEXT_ON_DARK, width: 1040 });
  }
  const foot = await textLayer(footer, { weight: "400Regular", size: 26, color: MUTED_ON_DARK, width: 1040 });
  return sharp(Buffer.from(background))
    .composite([
      { input: mark, left: 80, top: 72 },
      { input: brand.input, left: 172, top: 72 + Math.round((72 - brand.height) / 2) },
      // Below the accent rule; three lines of the longest title still clear the footer band.
      { input: heading.input, left: 80, top: 214 },
      { input: foot.input, left: 80, top: OG_HEIGHT - 36 - Math.round(foot.height / 2) },
    ])
    .png({ compressionLevel: 9, palette: true, quality: 90 })
    .toBuffer();
}
