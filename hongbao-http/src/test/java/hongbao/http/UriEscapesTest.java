package hongbao.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UriEscapesTest {

  @Test
  void aPercentStartingTwoHexDigits_isAnEscape_anyOtherIsNot() {
    assertThat(UriEscapes.wellFormed("/api/v1/wallet?limit=20")).isTrue();
    assertThat(UriEscapes.wellFormed("/api/v1/packets/k3%47x?cursor=%2Fa%2f%00%ED%A0%80")).isTrue();
    assertThat(UriEscapes.wellFormed("/%41%42%43")).isTrue();

    assertThat(UriEscapes.wellFormed("/api/v1/packets/%zz")).isFalse();
    assertThat(UriEscapes.wellFormed("/api/v1/wallet?limit=%")).isFalse();
    assertThat(UriEscapes.wellFormed("/api/v1/wallet?limit=%4")).isFalse();
    assertThat(UriEscapes.wellFormed("/a%g0")).isFalse();
    assertThat(UriEscapes.wellFormed("/a%%41")).as("a % right after another").isFalse();
    assertThat(UriEscapes.wellFormed("/a%41%")).as("a good escape, then a lone %").isFalse();
    assertThat(UriEscapes.wellFormed("/a%\uff10\uff10"))
        .as("fullwidth digits are no hex")
        .isFalse();
  }
}
