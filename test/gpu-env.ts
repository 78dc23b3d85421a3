/** Chromium's SwiftShader Vulkan ICD (Debian package `chromium`): a software WebGPU adapter for CI. */
export const SWIFTSHADER_ICD = "/usr/lib/chromium/vk_swiftshader_icd.json";
