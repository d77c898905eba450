#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# usage: module-signature.sh MODULE CERT
#
# Is MODULE (kbinder.ko, or .ko.xz/.ko.zst/.ko.gz as DKMS installs it)
# signed with the key of CERT (DKMS's machine-owner certificate,
# /var/lib/dkms/mok.pub: DER or PEM)? What the kernel checks when it loads
# a module: the marker "~Module signature appended~" at the end, before it
# the module_signature trailer (the PKCS#7 id type and the signature's
# length), before that the detached PKCS#7/CMS signature of everything in
# front of it. The signature must verify against CERT's key (openssl cms),
# and modinfo's signer must be CERT's common name, which is what a user
# sees. Prints one line, "signed: ..." or why not; exit 0 when signed,
# 1 otherwise. Needs openssl, od, head, tail, modinfo.
set -u

ko=${1:?usage: module-signature.sh MODULE CERT}
cert=${2:?usage: module-signature.sh MODULE CERT}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

no() {
	echo "not signed: $*"
	exit 1
}

[ -f "$ko" ] || no "no module at $ko"
[ -f "$cert" ] || no "no certificate at $cert (DKMS signs nothing without it)"
case "$ko" in
*.xz) xz -dc "$ko" >"$tmp/ko" ;;
*.zst) zstd -qdc "$ko" >"$tmp/ko" ;;
*.gz) gzip -dc "$ko" >"$tmp/ko" ;;
*) cat "$ko" >"$tmp/ko" ;;
esac || no "cannot decompress $ko"

marker='~Module signature appended~'
size=$(wc -c <"$tmp/ko")
[ "$size" -gt 40 ] || no "$ko is too small to be a module"
printf '%s\n' "$marker" >"$tmp/marker"
tail -c 28 "$tmp/ko" | cmp -s - "$tmp/marker" || no "no \"$marker\" at the end of $ko"

# struct module_signature, the 12 bytes before the marker: algo, hash,
# id_type (2: PKCS#7), signer_len, key_id_len, 3 pad, sig_len (big endian).
# shellcheck disable=SC2046 # one word a byte
set -- $(od -An -tu1 -j $((size - 40)) -N 12 "$tmp/ko")
[ $# -eq 12 ] || no "no signature trailer in $ko"
[ "$3" -eq 2 ] || no "signature id type $3 in $ko, not PKCS#7 (2)"
siglen=$(($9 * 16777216 + ${10} * 65536 + ${11} * 256 + ${12}))
body=$((size - 40 - siglen))
[ "$siglen" -gt 0 ] && [ "$body" -gt 0 ] || no "signature length $siglen does not fit $ko"
head -c "$body" "$tmp/ko" >"$tmp/body"
tail -c $((siglen + 40)) "$tmp/ko" | head -c "$siglen" >"$tmp/sig"

openssl x509 -inform DER -in "$cert" -out "$tmp/cert.pem" 2>/dev/null ||
	openssl x509 -in "$cert" -out "$tmp/cert.pem" 2>/dev/null ||
	no "$cert is not an X.509 certificate"
# The signature, over exactly the module's bytes, by CERT's key: the
# chain is not checked (a MOK is self-signed), the signature is.
openssl cms -verify -binary -inform DER -in "$tmp/sig" -content "$tmp/body" \
	-certfile "$tmp/cert.pem" -nointern -noverify -out /dev/null 2>"$tmp/err" ||
	no "the signature of $ko does not verify with $cert: $(head -n 1 "$tmp/err")"

cn=$(openssl x509 -in "$tmp/cert.pem" -noout -subject -nameopt RFC2253 |
	sed -n 's/^subject=.*CN=\([^,]*\).*/\1/p')
signer=$(modinfo -F signer "$ko" 2>/dev/null)
[ "$signer" = "$cn" ] || no "modinfo says signer '$signer', the certificate's name is '$cn'"
echo "signed: $ko by '$signer' ($(modinfo -F sig_hashalgo "$ko" 2>/dev/null), key $(modinfo -F sig_key "$ko" 2>/dev/null))"
