// Realistic assistant replies for the block-rendering tests and the benchmark.

export const SAMPLES: Record<string, string> = {
  lists: [
    '## 手順',
    '',
    '1. まず設定を開きます。',
    '2. **モデル**を選びます。',
    '',
    '3. 保存します。',
    '',
    '   保存すると[設定][cfg]に書き込まれます。',
    '',
    '- 箇条書き',
    '  - 入れ子の項目',
    '',
    '- ゆるいリスト（空行を挟む）',
    '',
    'Setext heading',
    '--------------',
    '',
    '> 引用の一行目',
    'lazy continuation',
    '',
    '[cfg]: https://example.com/settings "Settings"',
    '',
  ].join('\n'),
  table: [
    'Here is a comparison:',
    '',
    '| 名前 | 速度 | 備考 |',
    '|------|-----:|:----:|',
    '| A | 10 | `fast` |',
    '| B | 20 | 日本語 |',
    'no pipes still a row',
    '',
    'After the table, a [link](https://example.com) and an image ![alt](https://e.example/x.png).',
    '',
    '---',
    '',
    '### Usage {#basic-usage}',
    '',
    'Text with <b>inline html</b> and <script>alert(1)</script>.',
  ].join('\n'),
  fences: [
    'コードの例です：',
    '',
    '```ts',
    'function add(a: number, b: number) {',
    '',
    '  return a + b // 空行を含むフェンス',
    '}',
    '```',
    '',
    'And an indented block:',
    '',
    '    indented code',
    '    more',
    '',
    '~~~',
    'tilde fence',
    '~~~',
    '',
    '- item with fence:',
    '',
    '  ```sh',
    '  echo hi',
    '  ```',
    '',
    'Trailing paragraph with a reference [link][later].',
    '',
    '[later]: https://example.org',
  ].join('\n'),
  japanese: [
    '東京の天気は**晴れ**です。明日は雨が降るかもしれません。',
    '改行は<br>になります',
    '次の行。',
    '',
    '# 見出し',
    '',
    '* 項目一',
    '* 項目二',
    '',
    '本文の途中で`コード`と_強調_を使います。',
    '',
    '```',
    '閉じていないフェンス',
  ].join('\n'),
}

/** A long reply (~10,000 characters) mixing paragraphs, lists, tables and code. */
export function longReply(chars = 10_000): string {
  const parts: string[] = []
  let i = 0
  while (parts.join('\n\n').length < chars) {
    switch (i % 5) {
      case 0:
        parts.push(`## Section ${i}\n\nThis is paragraph ${i} with **bold**, a [link](https://example.com/${i}) and some 日本語の文章も含みます。`)
        break
      case 1:
        parts.push(`- point ${i}.1\n- point ${i}.2 with \`code\`\n  - nested ${i}`)
        break
      case 2:
        parts.push(`| col | value |\n|-----|-------|\n| a${i} | ${i} |\n| b${i} | ${i * 2} |`)
        break
      case 3:
        parts.push('```js\n' + `const x${i} = ${i}\n\nconsole.log(x${i})\n` + '```')
        break
      default:
        parts.push(`> A quote ${i}\n> over two lines.\n\nPlain text ${'lorem ipsum '.repeat(8)}`)
    }
    i++
  }
  return parts.join('\n\n').slice(0, chars)
}

/** A long reply mixing paragraphs with formulas, display math, code, a table and lists. */
export function mathReply(chars = 10_000): string {
  const parts: string[] = []
  let i = 0
  while (parts.join('\n\n').length < chars) {
    switch (i % 6) {
      case 0:
        parts.push(
          `## Step ${i}\n\nLet $f_${i}(x) = x^{${i}} + \\frac{1}{x}$ and \\(g(x) = \\sqrt{x^2+${i}}\\). ` +
            `It costs $1.99 or $${i} (PATH=$HOME/bin:$PATH stays text), and $f'(x) > 0$ for $x>1$.`,
        )
        break
      case 1:
        parts.push(`$$\n\\int_0^{${i}} e^{-x^2}\\,dx = \\sum_{k=0}^{\\infty} \\frac{(-1)^k ${i}^{2k+1}}{k!(2k+1)}\n$$`)
        break
      case 2:
        parts.push(
          '```python\n' +
            `def area_${i}(r: float) -> float:\n    """Area of a circle."""\n    return 3.14159 * r ** 2  # $r$ stays code\n\n` +
            `print(area_${i}(${i}))\n` +
            '```',
        )
        break
      case 3:
        parts.push(`| n | $n^2$ | cost |\n|---|---|---|\n| ${i} | $${i * i}$ | $5 |\n| ${i + 1} | $${(i + 1) ** 2}$ | $10 |`)
        break
      case 4:
        parts.push(
          `\\[\n\\begin{aligned} a_${i} &= b + c \\\\ d &= \\frac{a_${i}}{2} \\end{aligned}\n\\]\n\n` +
            `- point with $\\alpha_${i}$\n- \`code with $dollar\`\n  - nested $\\beta$`,
        )
        break
      default:
        parts.push('```sh\n' + `awk '{print $1, $2}' file${i}.txt | sort -k2\necho "$HOME"\n` + '```')
    }
    i++
  }
  return parts.join('\n\n').slice(0, chars)
}
