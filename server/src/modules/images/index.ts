// Owns image inspection: sniffing and checking JPEG/PNG headers and pixels.
export { ImageError, type ImageHeader, inspectJpeg, inspectPng, isJpeg, isPng, MAX_PIXELS, pngPassesThrough, type PngStructure, sniffImage, verifyPngData } from './inspect';
export { imagesRoutes } from './routes';
