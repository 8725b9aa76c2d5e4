#!/usr/bin/env bash
# `npm run archive:upload -- <archive folder> <manifest sha256>`: puts a verified archive folder on
# write-once storage (SEA Rule 17a-4(f)): S3 Object Lock in compliance mode, each object locked until
# now + ARCHIVE_RETENTION_DAYS (default 1096, three years), so that no one, the root account included,
# can change or delete it before then. Used by .github/workflows/deploy.yml after archive:verify.
#
# Needs the AWS CLI with credentials (the workflow assumes a role through GitHub's OIDC), ARCHIVE_BUCKET
# (a bucket created with Object Lock enabled) and optionally ARCHIVE_PREFIX. Refuses a bucket without
# Object Lock, then checks what it wrote: every object locked in COMPLIANCE mode, and manifest.json read
# back hashing to the recorded hash. With GITHUB_STEP_SUMMARY set, writes the record into the summary.
set -euo pipefail
folder=${1:?usage: archive-upload.sh <archive folder> <manifest sha256>}
expected=${2:?usage: archive-upload.sh <archive folder> <manifest sha256>}
bucket=${ARCHIVE_BUCKET:?set ARCHIVE_BUCKET}
days=${ARCHIVE_RETENTION_DAYS:-1096}
name=$(basename "$folder")
prefix="${ARCHIVE_PREFIX:-site-archive}/$name"
until=$(date -u -d "+${days} days" +%Y-%m-%dT%H:%M:%SZ)

lock=$(aws s3api get-object-lock-configuration --bucket "$bucket" --query 'ObjectLockConfiguration.ObjectLockEnabled' --output text)
[ "$lock" = "Enabled" ] || { echo "archive-upload: s3://$bucket has no Object Lock; refusing to upload"; exit 1; }

count=0
while IFS= read -r -d '' file; do
  key="$prefix/${file#"$folder"/}"
  aws s3api put-object --bucket "$bucket" --key "$key" --body "$file" --checksum-algorithm SHA256 \
    --object-lock-mode COMPLIANCE --object-lock-retain-until-date "$until" --output text --query 'VersionId' >/dev/null
  mode=$(aws s3api head-object --bucket "$bucket" --key "$key" --query 'ObjectLockMode' --output text)
  [ "$mode" = "COMPLIANCE" ] || { echo "archive-upload: $key is not locked in COMPLIANCE mode ($mode)"; exit 1; }
  count=$((count + 1))
done < <(find "$folder" -type f -print0 | sort -z)

read_back=$(aws s3 cp "s3://$bucket/$prefix/manifest.json" - | sha256sum | cut -d' ' -f1)
[ "$read_back" = "$expected" ] || { echo "archive-upload: manifest.json read back hashes to $read_back, not $expected"; exit 1; }

echo "archive-upload: $count objects in s3://$bucket/$prefix/, COMPLIANCE mode until $until; manifest.json sha256 $expected"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  {
    echo "### Archive of the deployed site"
    echo ""
    echo "| | |"
    echo "| --- | --- |"
    echo "| manifest.json sha256 | \`$expected\` |"
    echo "| location | \`s3://$bucket/$prefix/\` ($count objects) |"
    echo "| locked | COMPLIANCE mode until $until |"
    echo "| commit | \`${GITHUB_SHA:-unknown}\` |"
  } >> "$GITHUB_STEP_SUMMARY"
fi
