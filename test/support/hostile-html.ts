// Hostile HTML for the extraction tests: deep nesting, a flood of attributes, and an ordinary article to compare.
export const nestedDivs = (depth: number) =>
  `<html><head><title>deep</title></head><body>${'<div>'.repeat(depth)}deep text${'</div>'.repeat(depth)}</body></html>`;

export const manyAttributes = (count: number) =>
  `<html><body><div ${Array.from({ length: count }, (_, i) => `a${i}="v"`).join(' ')}>flood</div></body></html>`;

export const articleHtml = (title: string) =>
  `<html><head><title>${title}</title></head><body><nav>Home | Shop</nav><article><h1>${title}</h1>${Array.from(
    { length: 6 },
    (_, i) =>
      `<p>Paragraph ${i + 1} of ${title}: the keeper logged every passing ship, the weather, and the state of the lamp.</p>`,
  ).join('')}</article></body></html>`;
