// png.js — reads PNG screenshots (Chromium's, and `gpuplan gui --screenshot`'s) and tells a
// drawn canvas from a blank one. No dependencies beyond node, so the desktop smoke test
// (tests/gui) uses it too.
'use strict';

const zlib = require('zlib');

// Decodes an 8-bit, non-interlaced RGB or RGBA PNG (what Chromium's screenshots are) into
// rows of pixels, undoing the per-row filters, so colours can be counted honestly.
function decodePng(buffer) {
  let offset = 8;  // PNG signature
  let width = 0, height = 0, channels = 0;
  const idat = [];
  while (offset < buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString('ascii', offset + 4, offset + 8);
    const data = buffer.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [bitDepth, colourType, , , interlace] = data.subarray(8);
      if (bitDepth !== 8 || interlace !== 0 || (colourType !== 2 && colourType !== 6))
        throw new Error(`unsupported PNG (bit depth ${bitDepth}, colour type ${colourType})`);
      channels = colourType === 6 ? 4 : 3;
    } else if (type === 'IDAT') {
      idat.push(data);
    }
    offset += 12 + length;  // length + type + data + CRC
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; ++y) {
    const filter = raw[y * (stride + 1)];
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; ++x) {
      const left = x >= channels ? pixels[y * stride + x - channels] : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const upLeft = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels] : 0;
      let predictor = 0;
      if (filter === 1) predictor = left;
      else if (filter === 2) predictor = up;
      else if (filter === 3) predictor = (left + up) >> 1;
      else if (filter === 4) {  // Paeth
        const p = left + up - upLeft;
        const pa = Math.abs(p - left), pb = Math.abs(p - up), pc = Math.abs(p - upLeft);
        predictor = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      pixels[y * stride + x] = (row[x] + predictor) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

// How many distinct RGB colours, and how often the colour changes from one pixel to the next
// along a row: text is dense in such changes, flat fills and borders are not.
function colourStats({ width, height, channels, pixels }) {
  const colours = new Set();
  let changes = 0;
  for (let y = 0; y < height; ++y) {
    let previous = -1;
    for (let x = 0; x < width; ++x) {
      const i = (y * width + x) * channels;
      const rgb = (pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2];
      colours.add(rgb);
      if (previous >= 0 && rgb !== previous) ++changes;
      previous = rgb;
    }
  }
  return { distinct: colours.size, changesPerRow: changes / height };
}

// A blank canvas has one colour and no edges. A view with a tab bar and a few lines of
// anti-aliased text has dozens of colours and several colour changes per pixel row on
// average (a tab bar alone, measured: about 3 per row over a 1280x800 canvas; a drawn view:
// 20 or more). The thresholds sit between those.
const MIN_DISTINCT_COLOURS = 16;
const MIN_COLOUR_CHANGES_PER_ROW = 8;

function checkNotBlank(png, what, screenshotPath) {
  const stats = colourStats(decodePng(png));
  if (stats.distinct < MIN_DISTINCT_COLOURS || stats.changesPerRow < MIN_COLOUR_CHANGES_PER_ROW)
    throw new Error(`${what}: canvas looks blank: ${stats.distinct} colours, ` +
      `${stats.changesPerRow.toFixed(1)} colour changes per pixel row (see ${screenshotPath})`);
  return stats;
}

module.exports = { decodePng, colourStats, checkNotBlank };
