package hongbao.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.http.HttpVersion;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestFramingTest {

  @Test
  void chunkedAlone_orNoTransferEncoding_frameABody() {
    assertThat(RequestFraming.refusal(HttpVersion.HTTP_1_1, List.of(), true)).isNull();
    assertThat(RequestFraming.refusal(HttpVersion.HTTP_1_1, List.of("chunked"), true)).isNull();
    assertThat(RequestFraming.refusal(HttpVersion.HTTP_1_1, List.of(" Chunked "), true)).isNull();
  }

  @Test
  void anyOtherTransferEncoding_leavesTheBodyUnframed() {
    for (List<String> codings :
        List.of(
            List.of("identity"),
            List.of("gzip"),
            List.of("gzip, chunked"),
            List.of("chunked, gzip"),
            List.of("chunked, chunked"),
            List.of("gzip", "chunked"),
            List.of("xchunked"),
            List.of(""))) {
      assertThat(RequestFraming.refusal(HttpVersion.HTTP_1_1, codings, true))
          .as(codings.toString())
          .isEqualTo(RequestFraming.Refusal.TRANSFER_ENCODING);
    }
    assertThat(RequestFraming.refusal(HttpVersion.HTTP_1_0, List.of("chunked"), false))
        .as("HTTP/1.0 has no transfer codings")
        .isEqualTo(RequestFraming.Refusal.TRANSFER_ENCODING_ON_HTTP_1_0);
  }

  @Test
  void http11NeedsAHost_http10AndHttp2DoNot() {
    assertThat(RequestFraming.refusal(HttpVersion.HTTP_1_1, List.of(), false))
        .isEqualTo(RequestFraming.Refusal.NO_HOST);
    assertThat(RequestFraming.refusal(HttpVersion.HTTP_1_0, List.of(), false)).isNull();
    assertThat(RequestFraming.refusal(HttpVersion.HTTP_2, List.of("gzip"), false)).isNull();
  }
}
