import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import * as api from '@/api/models'
import type { ModelOptions } from '@/api/types'

export const useModelStore = defineStore('models', () => {
  const options = ref<ModelOptions | null>(null)
  const loading = ref(false)

  const presets = computed(() => options.value?.presets ?? [])
  const discovered = computed(() => options.value?.discovered ?? [])
  const defaultModel = computed(() => options.value?.defaultModel ?? '')
  const configured = computed(() => options.value?.configured ?? true)
  /** First run: no model can be used yet and there is no preset to pick. */
  const needsSetup = computed(
    () => options.value !== null && !options.value.configured && presets.value.length === 0,
  )

  async function load() {
    loading.value = true
    try {
      options.value = await api.options()
    } finally {
      loading.value = false
    }
  }

  async function addPreset(label: string, value: string) {
    await api.addPreset(label.trim(), value.trim())
    await load()
  }

  async function updatePreset(id: number, label: string, value: string) {
    await api.updatePreset(id, label.trim(), value.trim())
    await load()
  }

  async function deletePreset(id: number) {
    await api.deletePreset(id)
    await load()
  }

  /** The label of a model string: its preset's label if there is one. */
  function labelOf(value: string): string {
    return presets.value.find((p) => p.value === value)?.label ?? value
  }

  return {
    options, loading, presets, discovered, defaultModel, configured, needsSetup,
    load, addPreset, updatePreset, deletePreset, labelOf,
  }
})
