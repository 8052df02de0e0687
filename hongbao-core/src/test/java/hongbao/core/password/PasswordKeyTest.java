package hongbao.core.password;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PasswordKeyTest {

  @Test
  void key_ignoresPunctuationAndWhitespace() {
    assertThat(PasswordKey.of("恭喜，发财！")).isEqualTo(PasswordKey.of("恭喜 发财"));
    assertThat(PasswordKey.of("恭喜发财")).isEqualTo("恭喜发财");
  }

  @Test
  void key_foldsFullWidthAndCase() {
    assertThat(PasswordKey.of("ＨＢ　２０２６")).isEqualTo("hb2026");
    assertThat(PasswordKey.of("Happy New-Year")).isEqualTo("happynewyear");
  }

  @Test
  void key_keepsDifferentWordsDifferent() {
    assertThat(PasswordKey.of("恭喜发财")).isNotEqualTo(PasswordKey.of("新年快乐"));
  }

  @Test
  void key_ofOnlyPunctuation_isEmpty() {
    assertThat(PasswordKey.of(" ，。!? ")).isEmpty();
  }
}
