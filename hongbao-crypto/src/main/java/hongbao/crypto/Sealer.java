package hongbao.crypto;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.Configuration;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.Optional;

/**
 * Seals short binary bodies into opaque URL-safe tokens with AES-256-GCM (Tink), bound to
 * associated data that is not in the token (a user id, a purpose): a token opens only with the same
 * associated data, so a token copied to another user or another purpose is worthless.
 *
 * <p>Keys come in a Tink keyset: the primary key seals, every key in the set opens (Tink prefixes
 * each ciphertext with its key id). Rotation adds a new primary and keeps the old keys, so tokens
 * sealed before the rotation still open until the old key is removed. Thread-safe.
 */
public final class Sealer {

  private static final Configuration CONFIGURATION = registered();

  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  /** Bounded so that opening a hostile token costs nothing: real tokens are far shorter. */
  public static final int MAX_TOKEN_CHARS = 1_024;

  private final KeysetHandle keyset;
  private final Aead aead;

  /** The primary key's own sealing, when it is AES-GCM (see {@link PrimarySeal}). */
  private final Optional<PrimarySeal> primary;

  private Sealer(KeysetHandle keyset) {
    this.keyset = keyset;
    try {
      this.aead = keyset.getPrimitive(CONFIGURATION, Aead.class);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("the keyset holds no usable AEAD key", e);
    }
    this.primary = PrimarySeal.of(keyset.getPrimary().getKey());
  }

  private static Configuration registered() {
    try {
      AeadConfig.register();
      return RegistryConfiguration.get();
    } catch (GeneralSecurityException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** A sealer with one fresh AES-256-GCM key. */
  public static Sealer generate() {
    try {
      return new Sealer(
          KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM, CONFIGURATION));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot generate an AES-256-GCM key", e);
    }
  }

  /** A sealer over a cleartext Tink JSON keyset (as {@link #keysetJson()} writes it). */
  public static Sealer fromKeysetJson(String json) {
    try {
      return new Sealer(
          TinkJsonProtoKeysetFormat.parseKeyset(
              json, CONFIGURATION, InsecureSecretKeyAccess.get()));
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new IllegalArgumentException("not a valid Tink JSON keyset", e);
    }
  }

  /** The keyset as cleartext Tink JSON, to be kept as a secret. */
  public String keysetJson() {
    try {
      return TinkJsonProtoKeysetFormat.serializeKeyset(
          keyset, CONFIGURATION, InsecureSecretKeyAccess.get());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot serialise the keyset", e);
    }
  }

  /** A sealer whose new primary key seals from now on; every older key still opens. */
  public Sealer rotate() {
    try {
      return new Sealer(
          KeysetHandle.newBuilder(keyset)
              .addEntry(
                  KeysetHandle.generateEntryFromParameters(PredefinedAeadParameters.AES256_GCM)
                      .withRandomId()
                      .makePrimary())
              .build());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot add a key", e);
    }
  }

  /** How many keys can open tokens. */
  public int keys() {
    return keyset.size();
  }

  public String seal(byte[] body, byte[] associatedData) {
    try {
      return ENCODER.encodeToString(
          primary.isPresent()
              ? primary.get().seal(body, associatedData)
              : aead.encrypt(body, associatedData));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("sealing failed", e);
    }
  }

  /** The body, or empty for a token that is malformed, tampered with, or bound elsewhere. */
  public Optional<byte[]> open(String token, byte[] associatedData) {
    if (token == null || token.isEmpty() || token.length() > MAX_TOKEN_CHARS) {
      return Optional.empty();
    }
    try {
      return Optional.of(aead.decrypt(DECODER.decode(token), associatedData));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
