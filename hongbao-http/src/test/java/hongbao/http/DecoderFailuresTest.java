package hongbao.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Which failures {@link Failures} takes for a malformed request rather than a bug. */
class DecoderFailuresTest {

  @Test
  void aChunkSizeNettysDecoderCannotRead_isTheClientsFault() {
    Throwable failure = decoderFailureOf("zz\r\n{}\r\n0\r\n\r\n");

    assertThat(failure).isInstanceOf(NumberFormatException.class);
    assertThat(Failures.isRefusedByDecoder(failure)).isTrue();
  }

  @Test
  void theSameExceptionThrownAnywhereElse_isABug() {
    Throwable ours = null;
    try {
      Long.parseLong("zz", 16);
    } catch (NumberFormatException e) {
      ours = e;
    }

    assertThat(ours).isNotNull();
    assertThat(Failures.isRefusedByDecoder(ours)).isFalse();
    assertThat(Failures.isRefusedByDecoder(new IllegalStateException("a bug"))).isFalse();
  }

  /** The failure Netty's request decoder records on the body of a chunked POST. */
  private static Throwable decoderFailureOf(String chunkedBody) {
    var channel = new EmbeddedChannel(new HttpRequestDecoder());
    try {
      channel.writeInbound(
          Unpooled.copiedBuffer(
              "POST /api/v1/packets HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                  + chunkedBody,
              StandardCharsets.ISO_8859_1));
      Object message;
      while ((message = channel.readInbound()) != null) {
        try {
          if (message instanceof HttpContent content && content.decoderResult().isFailure()) {
            return content.decoderResult().cause();
          }
          assertThat(message).isInstanceOf(HttpRequest.class);
        } finally {
          ReferenceCountUtil.release(message);
        }
      }
      throw new AssertionError("the decoder accepted " + chunkedBody);
    } finally {
      channel.finishAndReleaseAll();
    }
  }
}
