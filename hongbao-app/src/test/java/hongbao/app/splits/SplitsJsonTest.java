package hongbao.app.splits;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SplitsJsonTest {

  @Test
  void decimal_roundsAndNeverUsesExponentNotation() {
    assertThat(SplitsJson.decimal(1000.2049, 2)).isEqualTo("1000.2");
    assertThat(SplitsJson.decimal(1000.0, 2)).isEqualTo("1000");
    assertThat(SplitsJson.decimal(0.0, 4)).isEqualTo("0");
    assertThat(SplitsJson.decimal(0.00005, 4)).isEqualTo("0");
    assertThat(SplitsJson.decimal(1.0e7, 2)).isEqualTo("10000000");
  }

  @Test
  void quoted_escapesQuotesBackslashesAndControlCharacters() {
    assertThat(SplitsJson.quoted("a\"b\\c\n")).isEqualTo("\"a\\\"b\\\\c\\u000a\"");
  }
}
