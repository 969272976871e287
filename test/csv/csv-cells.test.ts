import { csvCell, csvFile } from '../../shared/csv/csv-cells.js';

describe('csvCell', () => {
  it.each([
    ['=HYPERLINK("http://evil.example","x")', `"'=HYPERLINK(""http://evil.example"",""x"")"`],
    ['+1+cmd|" /C calc"!A0', `"'+1+cmd|"" /C calc""!A0"`],
    ['-2+3', "'-2+3"],
    ['@SUM(A1:A9)', "'@SUM(A1:A9)"],
    ['\tTAB', "'\tTAB"],
    ['\r=1', `"'\r=1"`],
  ])('escapes a cell beginning like a formula: %j → %j', (value, written) => {
    expect(csvCell(value)).toBe(written);
  });

  it('quotes commas, quotes and line breaks, and leaves plain text, numbers and empty cells alone', () => {
    expect(csvCell('Lovelace, Ada')).toBe('"Lovelace, Ada"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('a=b-c@d')).toBe('a=b-c@d');
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });
});

describe('csvFile', () => {
  it('writes a header and one CRLF-terminated row per record in the columns given', () => {
    const rows = [
      { a: 'x', b: 1 },
      { a: '=1', b: 2 },
    ];
    expect(csvFile(['b', 'a'], rows)).toBe("b,a\r\n1,x\r\n2,'=1\r\n");
  });
});
