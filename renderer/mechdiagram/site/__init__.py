"""The site stage: run the one-spec API over many specs (in worker processes), then put the files in place
in the output folder (staged, journalled, renamed, retired), with its manifest, build keys and gallery page;
or compare the folder with a fresh build (``check``)."""
