package hongbao.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.Parameters;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.AesGcmParameters;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link Sealer} seals AES-GCM with the JDK's cipher in Tink's format ({@link PrimarySeal}) and
 * opens through Tink: each side must read what the other writes, or tokens already given out stop
 * opening.
 */
class SealerTest {

  private static final byte[] BODY = "a reward token's body".getBytes(StandardCharsets.UTF_8);
  private static final byte[] ALICE = "alice".getBytes(StandardCharsets.UTF_8);
  private static final byte[] BOB = "bob".getBytes(StandardCharsets.UTF_8);

  @BeforeAll
  static void register() throws GeneralSecurityException {
    AeadConfig.register();
  }

  @Test
  void tinkItself_opensWhatTheSealerSeals_boundToItsAssociatedData() throws Exception {
    Sealer sealer = Sealer.generate();
    Aead tink = tinkAead(sealer);

    byte[] sealed = Base64.getUrlDecoder().decode(sealer.seal(BODY, ALICE));

    assertThat(tink.decrypt(sealed, ALICE)).isEqualTo(BODY);
    assertThat(sealer.open(sealer.seal(BODY, ALICE), BOB)).isEmpty();
  }

  @Test
  void theSealer_opensWhatTinkSealed_beforeAndAfterARotation() throws Exception {
    Sealer sealer = Sealer.generate();
    String byTink =
        Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(tinkAead(sealer).encrypt(BODY, ALICE));
    Sealer rotated = sealer.rotate();

    assertThat(sealer.open(byTink, ALICE)).hasValue(BODY);
    assertThat(rotated.open(byTink, ALICE)).hasValue(BODY);
    assertThat(tinkAead(rotated).decrypt(decode(rotated.seal(BODY, ALICE)), ALICE)).isEqualTo(BODY);
    assertThat(sealer.open(rotated.seal(BODY, ALICE), ALICE)).isEmpty();
  }

  @Test
  void sealsOnManyVirtualThreads_eachWithAFreshIv_allOpen() throws Exception {
    Sealer sealer = Sealer.generate();
    List<Future<String>> tokens = new ArrayList<>();
    try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < 2_000; i++) {
        tokens.add(threads.submit(() -> sealer.seal(BODY, ALICE)));
      }
    }
    Set<String> ivs = new HashSet<>();
    for (Future<String> token : tokens) {
      byte[] sealed = decode(token.get());
      // Tink's prefix (5 bytes: version and key id), then the 12-byte IV.
      ivs.add(Base64.getEncoder().encodeToString(java.util.Arrays.copyOfRange(sealed, 5, 17)));
      assertThat(sealer.open(token.get(), ALICE)).hasValue(BODY);
    }
    assertThat(ivs).hasSize(2_000);
  }

  @Test
  void theDefaultKey_sealsDirectly() {
    KeysetHandle keyset = keyset(PredefinedAeadParameters.AES256_GCM);

    assertThat(PrimarySeal.of(keyset.getPrimary().getKey())).isPresent();
  }

  @Test
  void aPrefixlessAesGcmKey_sealsDirectly_inTinksFormat() throws Exception {
    var parameters = aesGcm(16, AesGcmParameters.Variant.NO_PREFIX);

    assertThat(PrimarySeal.of(keyset(parameters).getPrimary().getKey())).isPresent();
    assertRoundTrips(parameters);
  }

  @Test
  void aPrimaryKeyOfAnotherKind_sealsThroughTink() throws Exception {
    for (var parameters :
        List.of(
            PredefinedAeadParameters.XCHACHA20_POLY1305,
            aesGcm(32, AesGcmParameters.Variant.CRUNCHY))) {
      assertThat(PrimarySeal.of(keyset(parameters).getPrimary().getKey()))
          .as("%s", parameters)
          .isEmpty();
      assertRoundTrips(parameters);
    }
  }

  private static void assertRoundTrips(Parameters parameters) throws Exception {
    Sealer sealer =
        Sealer.fromKeysetJson(
            TinkJsonProtoKeysetFormat.serializeKeyset(
                keyset(parameters), RegistryConfiguration.get(), InsecureSecretKeyAccess.get()));

    String token = sealer.seal(BODY, ALICE);

    assertThat(sealer.open(token, ALICE)).as("%s", parameters).hasValue(BODY);
    assertThat(tinkAead(sealer).decrypt(decode(token), ALICE)).isEqualTo(BODY);
    assertThat(sealer.open(token, BOB)).isEmpty();
  }

  private static AesGcmParameters aesGcm(int keyBytes, AesGcmParameters.Variant variant)
      throws GeneralSecurityException {
    return AesGcmParameters.builder()
        .setKeySizeBytes(keyBytes)
        .setIvSizeBytes(12)
        .setTagSizeBytes(16)
        .setVariant(variant)
        .build();
  }

  private static KeysetHandle keyset(Parameters parameters) {
    try {
      return KeysetHandle.generateNew(parameters, RegistryConfiguration.get());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Aead tinkAead(Sealer sealer) throws GeneralSecurityException {
    return TinkJsonProtoKeysetFormat.parseKeyset(
            sealer.keysetJson(), RegistryConfiguration.get(), InsecureSecretKeyAccess.get())
        .getPrimitive(RegistryConfiguration.get(), Aead.class);
  }

  private static byte[] decode(String token) {
    return Base64.getUrlDecoder().decode(token);
  }
}
