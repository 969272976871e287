// How a skill bundle's zip is opened, by its inspection and by the reader of one file: from memory (never unpacked to
// disk), entries one at a time, names left as bytes (the entry rules decode and judge them), sizes checked as read.
import yauzl, { type ZipFile } from 'yauzl';

export const openBundleZip = (zip: Buffer): Promise<ZipFile> =>
  yauzl.fromBufferPromise(zip, {
    lazyEntries: true,
    autoClose: false,
    decodeStrings: false,
    validateEntrySizes: true,
    strictFileNames: true,
  });
