ALTER TABLE "video_tasks" ADD COLUMN "inline_images" jsonb;--> statement-breakpoint
ALTER TABLE "video_tasks" ADD COLUMN "inline_image_bytes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "video_tasks_inline_images_idx" ON "video_tasks" USING btree ("organization_id") WHERE inline_image_bytes > 0;--> statement-breakpoint
-- Rows stored before this migration keep their data URLs inside request.images: each becomes its descriptor (media
-- type, decoded bytes, SHA-256); the data URL moves to inline_images while the task is open and may still be
-- submitted, and is dropped otherwise (a custom part: drizzle's schema cannot express moving data).
DO $$
DECLARE
  task record;
  image jsonb;
  images jsonb;
  urls jsonb;
  held integer;
  url text;
  decoded bytea;
BEGIN
  FOR task IN
    SELECT id, request FROM video_tasks
    WHERE jsonb_path_exists(request, '$.images[*].url ? (@ starts with "data:")')
  LOOP
    images := '[]';
    urls := '[]';
    held := 0;
    FOR image IN SELECT value FROM jsonb_array_elements(task.request->'images') LOOP
      url := image->>'url';
      IF url LIKE 'data:%' THEN
        BEGIN
          decoded := decode(split_part(url, ',', 2), 'base64');
        EXCEPTION WHEN others THEN
          decoded := NULL;
        END;
        images := images || jsonb_build_array(jsonb_build_object('role', image->'role', 'inline', jsonb_build_object(
          'mediaType', lower(substring(url from '^data:([^;,]*)')),
          'bytes', coalesce(length(decoded), 0),
          'sha256', coalesce(encode(sha256(decoded), 'hex'), ''))));
        urls := urls || to_jsonb(url);
        held := held + coalesce(length(decoded), 0);
      ELSE
        images := images || jsonb_build_array(image);
      END IF;
    END LOOP;
    UPDATE video_tasks SET
      request = jsonb_set(request, '{images}', images),
      inline_images = CASE WHEN status IN ('queued', 'in_progress') AND upstream_attempts < 2 THEN urls END,
      inline_image_bytes = CASE WHEN status IN ('queued', 'in_progress') AND upstream_attempts < 2 THEN held ELSE 0 END
    WHERE id = task.id;
  END LOOP;
END $$;
