package hongbao.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonFieldsTest {

  private static final String[] SEND_FIELDS = {"amount", "count", "type", "greeting", "recipients"};

  private static JsonFields parse(Buffer body, String... fields) {
    return JsonFields.parse(body, fields[0], Arrays.copyOfRange(fields, 1, fields.length));
  }

  private static JsonFields parse(String body, String... fields) {
    return parse(Buffer.buffer(body.getBytes(StandardCharsets.UTF_8)), fields);
  }

  private static void assertRefused(Buffer body, String messagePart, String... fields) {
    assertThatThrownBy(() -> parse(body, fields))
        .isInstanceOfSatisfying(
            ApiError.class,
            e -> {
              assertThat(e.status()).isEqualTo(400);
              assertThat(e.code()).isEqualTo("INVALID_REQUEST");
            })
        .hasMessageContaining(messagePart);
  }

  private static void assertRefused(String body, String messagePart, String... fields) {
    assertRefused(Buffer.buffer(body.getBytes(StandardCharsets.UTF_8)), messagePart, fields);
  }

  @Test
  void parse_ofAWellFormedBody_readsEveryField() {
    JsonFields body =
        parse(
            "{\"amount\":100,\"count\":2,\"type\":\"LUCKY\",\"greeting\":\"恭喜发财 🧧\","
                + "\"recipients\":[\"a\",\"b\"]}",
            SEND_FIELDS);
    assertThat(body.requiredInteger("amount")).isEqualTo(100);
    assertThat(body.optionalString("greeting")).isEqualTo("恭喜发财 🧧");
    assertThat(body.optionalStrings("recipients")).isEqualTo(List.of("a", "b"));
    assertThat(parse("", SEND_FIELDS).json().isEmpty()).isTrue();
  }

  @Test
  void parse_ofADuplicateKey_isRefused_namingTheKey() {
    assertRefused("{\"amount\":100,\"count\":1,\"amount\":200}", "'amount'", SEND_FIELDS);
    assertRefused("{\"amount\":1,\"amount\":1}", "'amount'", SEND_FIELDS);
    assertRefused("{\"greeting\":{\"x\":1,\"x\":2}}", "'x'", SEND_FIELDS);
  }

  @Test
  void parse_ofAnUnknownField_isRefused_namingTheField() {
    assertRefused("{\"amount\":100,\"pasword\":\"abc\"}", "'pasword'", SEND_FIELDS);
    assertRefused("{\"expiresInSecond\":60}", "'expiresInSecond'", SEND_FIELDS);
    assertRefused("{\"password\":\"x\"}", "'password'", "receipt");
  }

  @Test
  void parse_ofTheNulCharacter_isRefused_inValuesNamesAndArrays() {
    assertRefused("{\"greeting\":\"a\\u0000b\"}", "'greeting'", SEND_FIELDS);
    assertRefused("{\"recipients\":[\"a\",\"\\u0000\"]}", "'recipients'", SEND_FIELDS);
    assertRefused("{\"amo\\u0000unt\":1}", "U+0000", SEND_FIELDS);
  }

  @Test
  void parse_ofAnUnpairedSurrogate_isRefused_andAPairIsKept() {
    for (String text : List.of("\\ud800", "\\udc00", "a\\ud800b", "\\udc00\\ud800", "x\\ud83e")) {
      assertRefused("{\"greeting\":\"" + text + "\"}", "surrogate", SEND_FIELDS);
    }
    assertRefused("{\"\\ud800\":1}", "surrogate", SEND_FIELDS);
    assertThat(parse("{\"greeting\":\"\\ud83e\\udde7\"}", SEND_FIELDS).optionalString("greeting"))
        .isEqualTo("🧧");
  }

  @Test
  void parse_ofBytesThatAreNotUtf8_isRefused() {
    byte[] start = "{\"greeting\":\"".getBytes(StandardCharsets.US_ASCII);
    byte[] end = "\"}".getBytes(StandardCharsets.US_ASCII);
    // a stray continuation byte, a truncated sequence, and U+D800 spelt in UTF-8's bit pattern
    for (byte[] middle :
        List.of(
            new byte[] {(byte) 0x80},
            new byte[] {(byte) 0xe6, (byte) 0x81},
            new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80})) {
      Buffer body = Buffer.buffer().appendBytes(start).appendBytes(middle).appendBytes(end);
      assertRefused(body, "UTF-8", SEND_FIELDS);
    }
  }

  @Test
  void parse_ofAnythingButOneObject_isRefused() {
    assertRefused("[1,2]", "JSON object", SEND_FIELDS);
    assertRefused("\"amount\"", "JSON object", SEND_FIELDS);
    assertRefused("{\"amount\":1} {\"amount\":2}", "nothing after it", SEND_FIELDS);
    assertRefused("{\"amount\":1} x", "JSON", SEND_FIELDS);
    assertRefused("{not json", "not valid JSON", SEND_FIELDS);
    assertRefused("{\"amount\":1,}", "not valid JSON", SEND_FIELDS);
    assertRefused(
        "{\"greeting\":" + "[".repeat(50) + "]".repeat(50) + "}", "not valid JSON", SEND_FIELDS);
  }

  @Test
  void integers_mustBeIntegerLiterals_andHugeOnesAreOutOfRange() {
    for (String literal : List.of("100.0", "1e2", "\"100\"", "true", "[1]")) {
      assertThatThrownBy(
              () -> parse("{\"amount\":" + literal + "}", SEND_FIELDS).requiredInteger("amount"))
          .as(literal)
          .isInstanceOf(ApiError.class);
    }
    assertThat(
            parse("{\"amount\":123456789012345678901234567890}", SEND_FIELDS)
                .requiredInteger("amount"))
        .isEqualTo(JsonFields.OUT_OF_RANGE);
    assertThat(
            parse("{\"amount\":-123456789012345678901234567890}", SEND_FIELDS)
                .requiredInteger("amount"))
        .isEqualTo(Long.MIN_VALUE);
    assertThat(parse("{\"amount\":9000000000}", SEND_FIELDS).requiredInteger("amount"))
        .isEqualTo(9_000_000_000L);
    assertThat(parse("{\"amount\":-9223372036854775808}", SEND_FIELDS).requiredInteger("amount"))
        .isEqualTo(Long.MIN_VALUE);
    assertThat(parse("{\"amount\":9223372036854775808}", SEND_FIELDS).requiredInteger("amount"))
        .isEqualTo(JsonFields.OUT_OF_RANGE);
    // Valid JSON however long: out of range, not malformed (past 1,000 digits it was "not JSON").
    String digits = "1" + "0".repeat(10_000);
    assertThat(parse("{\"amount\":" + digits + "}", SEND_FIELDS).requiredInteger("amount"))
        .isEqualTo(JsonFields.OUT_OF_RANGE);
    assertThat(parse("{\"amount\":-" + digits + "}", SEND_FIELDS).requiredInteger("amount"))
        .isEqualTo(Long.MIN_VALUE);
    assertThatThrownBy(
            () -> parse("{\"amount\":" + digits + ".5}", SEND_FIELDS).requiredInteger("amount"))
        .as("a long fraction is still mistyped")
        .isInstanceOf(ApiError.class)
        .hasMessageContaining("must be an integer");
  }

  @Test
  void digest_isTheSameForTheSameValueInAnotherSpelling() {
    String one = "{\"amount\":100,\"type\":\"LUCKY\",\"recipients\":[\"a\"]}";
    String other = "{ \"recipients\" : [ \"a\" ], \"type\":\"\\u004cUCKY\", \"amount\" : 100 }";
    assertThat(CanonicalJson.digest(parse(one, SEND_FIELDS).json()))
        .isEqualTo(CanonicalJson.digest(parse(other, SEND_FIELDS).json()));
  }
}
