/** A binary min-heap under `before` (true when `a` must come out before `b`). */
export class MinHeap<T> {
  private readonly items: T[] = [];

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.before(items[index] as T, items[parent] as T)) break;
      [items[index], items[parent]] = [items[parent] as T, items[index] as T];
      index = parent;
    }
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    items[0] = last;
    let index = 0;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let smallest = index;
      if (left < items.length && this.before(items[left] as T, items[smallest] as T)) smallest = left;
      if (right < items.length && this.before(items[right] as T, items[smallest] as T)) smallest = right;
      if (smallest === index) break;
      [items[index], items[smallest]] = [items[smallest] as T, items[index] as T];
      index = smallest;
    }
    return top;
  }
}
