package hongbao.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class WebUiSettingsTest {

  @Test
  void shareLink_usesThePublicUrl_withoutItsTrailingSlash() {
    var settings = new WebUiSettings(" https://hongbao.example.com/ ", null);
    assertThat(settings.publicUrl()).isEqualTo("https://hongbao.example.com");
    assertThat(settings.shareLink("http://127.0.0.1:8080", "k3Gx9Q"))
        .isEqualTo("https://hongbao.example.com/#/grab/k3Gx9Q");
  }

  @Test
  void shareLink_withoutAPublicUrl_usesTheOriginTheRequestCameTo() {
    var settings = new WebUiSettings(null, null);
    assertThat(settings).isEqualTo(WebUiSettings.NONE);
    assertThat(settings.shareLink("http://127.0.0.1:8080", "k3Gx9Q"))
        .isEqualTo("http://127.0.0.1:8080/#/grab/k3Gx9Q");
  }

  @Test
  void refusesAnAddressABrowserCannotOpenOrReturnTo() {
    assertThatThrownBy(() -> new WebUiSettings("hongbao.example", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("HONGBAO_PUBLIC_URL");
    assertThatThrownBy(() -> new WebUiSettings(null, "https://login.example/#x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("HONGBAO_LOGIN_URL");
    assertThatThrownBy(() -> new WebUiSettings(null, "ftp://login.example"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void svg_drawsAQrCodeWithItsQuietZone() {
    String svg = WebUiRoutes.svg("https://hongbao.example.com/#/grab/k3Gx9Q");
    // Whichever version ZXing picks (17 + 4 × v modules a side), the border adds 2 × 4 modules,
    // and the finder pattern's dark corner starts right inside it.
    var viewBox = java.util.regex.Pattern.compile("viewBox=\"0 0 (\\d+) (\\d+)\"").matcher(svg);
    assertThat(viewBox.find()).isTrue();
    int size = Integer.parseInt(viewBox.group(1));
    assertThat(viewBox.group(2)).isEqualTo(viewBox.group(1));
    assertThat((size - 8 - 17) % 4).as("modules a side").isZero();
    assertThat(svg).startsWith("<svg").contains("M4 4h1v1h-1z").endsWith("</svg>");
  }
}
