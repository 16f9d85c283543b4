/// <reference types="vitest/config" />
import { writeFileSync } from 'node:fs'
import { fileURLToPath, URL } from 'node:url'
import vue from '@vitejs/plugin-vue'
import { defineConfig, type Plugin } from 'vite'
import { CONTENT_SECURITY_POLICY } from './src/csp.ts'

// The Go side embeds frontend/dist with //go:embed, and a fresh clone only
// compiles if dist/ exists: dist/.gitkeep is committed, so put it back after
// vite empties the folder.
function keepGitkeep(): Plugin {
  return {
    name: 'playchat-keep-gitkeep',
    apply: 'build',
    closeBundle() {
      writeFileSync(fileURLToPath(new URL('./dist/.gitkeep', import.meta.url)), '')
    },
  }
}

// The window's Content-Security-Policy (src/csp.ts), first in <head> of the
// built page; `wails dev` (vite's dev server) runs without it.
function contentSecurityPolicy(): Plugin {
  return {
    name: 'playchat-csp',
    apply: 'build',
    transformIndexHtml() {
      return [
        {
          tag: 'meta',
          attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY },
          injectTo: 'head-prepend',
        },
      ]
    },
  }
}

export default defineConfig({
  plugins: [vue(), keepGitkeep(), contentSecurityPolicy()],
  define: {
    // vue-i18n: composition API only, no devtools hooks in the bundle.
    __VUE_I18N_FULL_INSTALL__: true,
    __VUE_I18N_LEGACY_API__: false,
    __INTLIFY_PROD_DEVTOOLS__: false,
  },
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 800,
  },
  test: {
    environment: 'jsdom',
    include: ['tests/**/*.test.ts'],
    setupFiles: ['tests/setup.ts'],
    // A safety net only, never a speed check (those are benchmarks): on a
    // loaded 2-core machine a test rendering hundreds of messages or every
    // highlight.js language passed 5 s, vitest's default.
    testTimeout: 30_000,
  },
})
