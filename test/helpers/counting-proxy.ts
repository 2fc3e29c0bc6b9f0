/** An object with the calls of one of its methods counted (tests that assert a read happens once, or not at all). */
export function countingCalls<T extends object>(target: T, method: keyof T & string): { proxy: T; calls: () => number; firstArgs: unknown[] } {
  let calls = 0;
  const firstArgs: unknown[] = [];
  const proxy = new Proxy(target, {
    get(object, property) {
      const value = Reflect.get(object, property) as unknown;
      if (typeof value !== 'function') return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(object);
      if (property !== method) return bound;
      return (...args: unknown[]) => {
        calls++;
        firstArgs.push(args[0]);
        return bound(...args);
      };
    },
  });
  return { proxy, calls: () => calls, firstArgs };
}
