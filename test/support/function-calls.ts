/**
 * How many times `run` calls `new Function`: how a test sees Effect's Schema JIT compile a
 * schema (it generates each decoder with `new Function`).
 */
export const functionCalls = <A>(run: () => A): { readonly result: A; readonly calls: number } => {
  const original = globalThis.Function
  let calls = 0
  globalThis.Function = new Proxy(original, {
    apply: (target, self, args) => {
      calls++
      return Reflect.apply(target, self, args)
    }
  })
  try {
    return { result: run(), calls }
  } finally {
    globalThis.Function = original
  }
}
